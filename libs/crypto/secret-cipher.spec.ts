import { describe, expect, it } from '@jest/globals';

import { DecryptionError, UnknownKeyIdError } from './crypto-errors.js';
import { KeyRing } from './key-ring.js';
import { SecretCipher } from './secret-cipher.js';

const oldRing = new KeyRing([{ kid: 'old', key: Buffer.alloc(32, 1) }]);
const rotatedRing = new KeyRing([
  { kid: 'new', key: Buffer.alloc(32, 2) },
  { kid: 'old', key: Buffer.alloc(32, 1) },
]);

describe('SecretCipher', () => {
  const sut = new SecretCipher(oldRing);

  it.each(['', 'x', 'client-secret-0123456789', 'ünïcødé ✓ 🔐'])('round-trips %j', (secret) => {
    const token = sut.encryptSecret(secret, 'connection-1');

    expect(token).toMatch(/^v1\.old\.[\w-]{16}\.[\w-]*\.[\w-]{22}$/);
    expect(sut.decryptSecret(token, 'connection-1')).toBe(secret);
  });

  it('does not show the secret in the token and never repeats a token', () => {
    const token = sut.encryptSecret('hunter2-hunter2');

    expect(token).not.toContain('hunter2');
    expect(Buffer.from(token.split('.')[3], 'base64url').toString()).not.toContain('hunter2');
    expect(sut.encryptSecret('hunter2-hunter2')).not.toBe(token);
  });

  it('fails when the token is moved to another row (different aad)', () => {
    const token = sut.encryptSecret('s3cret', 'connection-1');

    expect(() => sut.decryptSecret(token, 'connection-2')).toThrow(DecryptionError);
    expect(() => sut.decryptSecret(token)).toThrow(DecryptionError);
  });

  it('detects any altered character', () => {
    const token = sut.encryptSecret('s3cret', 'c1');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';

    for (let i = 0; i < token.length; i += 1) {
      const replacement = alphabet[(alphabet.indexOf(token[i]) + 1) % alphabet.length];
      const altered = token.slice(0, i) + replacement + token.slice(i + 1);
      expect(() => sut.decryptSecret(altered, 'c1')).toThrow(DecryptionError);
    }
  });

  it.each(['', 'v1', 'v2.old.a.b.c', 'v1.old.a.b', 'v1.old.!!.b.c'])(
    'rejects malformed token %j',
    (token) => {
      expect(() => sut.decryptSecret(token)).toThrow(DecryptionError);
    },
  );

  it('names a key id that is no longer in the key ring', () => {
    const token = new SecretCipher(rotatedRing).encryptSecret('s3cret');

    expect(() => sut.decryptSecret(token)).toThrow(UnknownKeyIdError);
  });

  it('re-encrypts under the new active key on rotation', () => {
    const token = sut.encryptSecret('s3cret', 'c1');
    const rotated = new SecretCipher(rotatedRing);

    const reencrypted = rotated.reencryptSecret(token, 'c1');

    expect(rotated.keyIdOf(reencrypted)).toBe('new');
    expect(rotated.decryptSecret(reencrypted, 'c1')).toBe('s3cret');
    expect(rotated.reencryptSecret(reencrypted, 'c1')).toBe(reencrypted);
  });
});
