import { createHash, randomBytes } from 'node:crypto';

import { describe, expect, it } from '@jest/globals';

import { DecryptionError, InvalidMasterKeyError, UnknownKeyIdError } from './crypto-errors.js';
import { generateDataKey, rewrap } from './data-key.js';
import { KeyRing } from './key-ring.js';
import { generateMasterKey } from './master-key-spec.js';

const keyA = Buffer.alloc(32, 0xa1);
const keyB = Buffer.alloc(32, 0xb2);

function captureError(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('KeyRing.parse', () => {
  it('takes one base64 key and derives its id from SHA-256 of the key', () => {
    const sut = KeyRing.parse(keyA.toString('base64'));

    expect(sut.kids).toEqual([createHash('sha256').update(keyA).digest('hex').slice(0, 8)]);
  });

  it('gives the same key the same id whether written as hex, base64 or base64url', () => {
    const kids = [keyA.toString('hex'), keyA.toString('base64'), keyA.toString('base64url')].map(
      (spec) => KeyRing.parse(spec).activeKid,
    );

    expect(new Set(kids).size).toBe(1);
  });

  it('takes a kid:key list with the first entry active', () => {
    const sut = KeyRing.parse(` k2:${keyB.toString('base64')} , k1:${keyA.toString('hex')} `);

    expect(sut.activeKid).toBe('k2');
    expect(sut.kids).toEqual(['k2', 'k1']);
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    [Buffer.alloc(16).toString('base64'), /must be 32 bytes .* got 16 bytes/],
    [Buffer.alloc(33).toString('hex'), /must be 32 bytes .* got 49 bytes/],
    ['not a key!', /not hex or base64/],
    [`k1:${keyA.toString('base64')},`, /entry 2: expected "kid:key"/],
    [`k1:${keyA.toString('base64')},k1:${keyB.toString('base64')}`, /"k1" appears more than once/],
    [`bad.kid:${keyA.toString('base64')}`, /key id "bad.kid" must match/],
    [`:${keyA.toString('base64')}`, /key id "" must match/],
    [`k1:${Buffer.alloc(31).toString('base64')}`, /entry 1 \(key id "k1"\): must be 32 bytes/],
  ])('rejects %j', (spec, message) => {
    expect(() => KeyRing.parse(spec)).toThrow(InvalidMasterKeyError);
    expect(() => KeyRing.parse(spec)).toThrow(message);
  });

  it('never repeats key material in its errors', () => {
    const shortKey = randomBytes(31).toString('base64');

    const error = captureError(() => KeyRing.parse(`k1:${shortKey}`));

    expect(error).toBeInstanceOf(InvalidMasterKeyError);
    expect(error.message).not.toContain(shortKey);
  });
});

describe('generateMasterKey', () => {
  it('produces a fresh 32-byte key that parses, alone or as a list entry', () => {
    const single = generateMasterKey();
    const entry = generateMasterKey('2026-11');

    expect(Buffer.from(single, 'base64')).toHaveLength(32);
    expect(single).not.toBe(generateMasterKey());
    expect(KeyRing.parse(`${entry},old:${single}`).activeKid).toBe('2026-11');
  });

  it('rejects a key id that cannot be embedded', () => {
    expect(() => generateMasterKey('a,b')).toThrow(InvalidMasterKeyError);
  });
});

describe('KeyRing.wrapKey / unwrapKey', () => {
  const sut = new KeyRing([
    { kid: 'k1', key: keyA },
    { kid: 'k0', key: keyB },
  ]);

  it('round-trips a data key under the active key id', () => {
    const dataKey = generateDataKey();

    const wrapped = sut.wrapKey(dataKey);

    expect(wrapped.kid).toBe('k1');
    expect(Buffer.from(wrapped.wrapped, 'base64url')).toHaveLength(60);
    expect(sut.unwrapKey(wrapped)).toEqual(dataKey);
  });

  it('uses a fresh IV each time', () => {
    const dataKey = generateDataKey();

    expect(sut.wrapKey(dataKey).wrapped).not.toBe(sut.wrapKey(dataKey).wrapped);
  });

  it('detects every altered byte of the wrapped key', () => {
    const wrapped = sut.wrapKey(generateDataKey());
    const bytes = Buffer.from(wrapped.wrapped, 'base64url');

    for (let i = 0; i < bytes.length; i += 1) {
      const altered = Buffer.from(bytes);
      altered[i] ^= 0x01;
      expect(() => sut.unwrapKey({ kid: 'k1', wrapped: altered.toString('base64url') })).toThrow(
        DecryptionError,
      );
    }
  });

  it('rejects a wrapped key that is not canonical base64url or not 60 bytes', () => {
    const { wrapped } = sut.wrapKey(generateDataKey());

    expect(() => sut.unwrapKey({ kid: 'k1', wrapped: `${wrapped}A` })).toThrow(/malformed wrapped key/);
    expect(() => sut.unwrapKey({ kid: 'k1', wrapped: wrapped.slice(0, 40) })).toThrow(
      /malformed wrapped key/,
    );
  });

  it('fails under another key id of the ring, and names an unknown key id', () => {
    const wrapped = sut.wrapKey(generateDataKey());

    expect(() => sut.unwrapKey({ ...wrapped, kid: 'k0' })).toThrow(DecryptionError);
    expect(() => sut.unwrapKey({ ...wrapped, kid: 'gone' })).toThrow(UnknownKeyIdError);
    expect(() => sut.unwrapKey({ ...wrapped, kid: 'gone' })).toThrow(/key id "gone"/);
  });

  it('does not open a data key wrapped for another purpose', () => {
    const dataKey = generateDataKey();
    const sealed = sut.encrypt(dataKey, 'idp-backup/secret/v1');
    const wrapped = Buffer.concat([sealed.box.iv, sealed.box.ciphertext, sealed.box.tag]).toString(
      'base64url',
    );

    expect(() => sut.unwrapKey({ kid: sealed.kid, wrapped })).toThrow(DecryptionError);
  });
});

describe('rewrap (master key rotation)', () => {
  it('moves a data key to the new active key; the old key can then be dropped', () => {
    const before = new KeyRing([{ kid: 'old', key: keyA }]);
    const during = new KeyRing([
      { kid: 'new', key: keyB },
      { kid: 'old', key: keyA },
    ]);
    const after = new KeyRing([{ kid: 'new', key: keyB }]);
    const dataKey = generateDataKey();
    const wrapped = before.wrapKey(dataKey);

    const sut = rewrap(wrapped, during);

    expect(sut.kid).toBe('new');
    expect(after.unwrapKey(sut)).toEqual(dataKey);
    expect(() => after.unwrapKey(wrapped)).toThrow(UnknownKeyIdError);
  });

  it('leaves a key already under the active key unchanged', () => {
    const ring = new KeyRing([{ kid: 'k1', key: keyA }]);
    const wrapped = ring.wrapKey(generateDataKey());

    expect(rewrap(wrapped, ring)).toBe(wrapped);
  });
});
