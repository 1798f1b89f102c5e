import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { KeyRing } from '@libs/crypto/key-ring.js';
import { NotFoundError } from '@app/common/errors.js';
import { PackSigner } from './pack-signer.js';

const ring = (...keys: Array<[kid: string, byte: number]>) =>
  new KeyRing(keys.map(([kid, byte]) => ({ kid, key: Buffer.alloc(32, byte) })));

describe('PackSigner', () => {
  it('signs with an Ed25519 key derived from the master key, the same on every replica', () => {
    const sut = new PackSigner(ring(['k1', 0x11]));
    const data = Buffer.from('MANIFEST');
    const signature = sut.sign(data);
    expect(signature).toHaveLength(64);
    const publicKey = createPublicKey(sut.publicKey().pem);
    expect(publicKey.asymmetricKeyType).toBe('ed25519');
    expect(verify(null, data, publicKey, signature)).toBe(true);
    expect(verify(null, Buffer.from('MANIFESt'), publicKey, signature)).toBe(false);
    expect(new PackSigner(ring(['k1', 0x11])).publicKey()).toEqual(sut.publicKey());
  });

  it('gives another key under another master key, and keeps serving a retired one while the ring holds it', () => {
    const before = new PackSigner(ring(['k1', 0x11]));
    const rotated = new PackSigner(ring(['k2', 0x22], ['k1', 0x11]));
    expect(rotated.activeKeyId).toBe('k2');
    expect(rotated.publicKey().pem).not.toBe(before.publicKey().pem);
    expect(rotated.publicKey('k1')).toEqual(before.publicKey());
    const signedBefore = before.sign(Buffer.from('old pack'));
    expect(
      verify(null, Buffer.from('old pack'), createPublicKey(rotated.publicKey('k1').pem), signedBefore),
    ).toBe(true);
    expect(() => rotated.publicKey('k3')).toThrow(NotFoundError);
  });

  it('derives a key of its own: not the master key, not the report URL key', () => {
    const keyRing = ring(['k1', 0x11]);
    const seedOf = (pem: string) => createPublicKey(pem).export({ format: 'jwk' }).x;
    const sut = new PackSigner(keyRing);
    expect(seedOf(sut.publicKey().pem)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(keyRing.deriveKey('audit-pack-signing')).not.toEqual(keyRing.deriveKey('report-url'));
  });
});
