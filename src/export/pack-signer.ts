import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import { NotFoundError } from '@app/common/errors.js';

/** HKDF label of the audit pack's signing key (KeyRing.deriveKey): valid for nothing else. */
const PURPOSE = 'audit-pack-signing';

/**
 * DER of a PKCS #8 Ed25519 private key up to its 32-byte seed (RFC 8410 section 7: version 0,
 * algorithm id-Ed25519 1.3.101.112, the seed as an OCTET STRING in an OCTET STRING).
 */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The service's public signing key as an auditor fetches it. */
export interface PublicSigningKey {
  /** the master key id it is derived under (MANIFEST.json `signing_key.key_id`) */
  keyId: string;
  /** SubjectPublicKeyInfo, PEM (`openssl pkeyutl -pubin -inkey` reads it) */
  pem: string;
  /** SHA-256 of the DER SubjectPublicKeyInfo, hex */
  sha256: string;
}

/**
 * The service's Ed25519 key that signs audit packs (DESIGN section 8, docs/export.md): its seed is
 * derived from the master key (HKDF, `KeyRing.deriveKey`), so every replica signs with the same
 * key and nothing more needs storing or backing up; a master key rotation gives a new signing key
 * under the new key id, while packs signed before it still verify against the old id's public key
 * for as long as the ring holds that master key.
 */
export class PackSigner {
  private readonly keys = new Map<string, { privateKey: KeyObject; publicKey: PublicSigningKey }>();

  constructor(private readonly keyRing: KeyRing) {}

  /** The key id packs are signed under now. */
  get activeKeyId(): string {
    return this.keyRing.activeKid;
  }

  /**
   * @param keyId a master key id of the ring; default the active one
   * @throws NotFoundError for a key id the ring does not hold
   */
  publicKey(keyId = this.keyRing.activeKid): PublicSigningKey {
    return this.key(keyId).publicKey;
  }

  /** The Ed25519 signature (64 bytes, RFC 8032) of `data` under the active key. */
  sign(data: Buffer): Buffer {
    return sign(null, data, this.key(this.keyRing.activeKid).privateKey);
  }

  private key(keyId: string): { privateKey: KeyObject; publicKey: PublicSigningKey } {
    const cached = this.keys.get(keyId);
    if (cached) return cached;
    if (!this.keyRing.has(keyId)) throw new NotFoundError('Signing key');
    const seed = this.keyRing.deriveKey(PURPOSE, keyId);
    const privateKey = createPrivateKey({
      key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
      format: 'der',
      type: 'pkcs8',
    });
    const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
    const pem = createPublicKey(privateKey).export({ format: 'pem', type: 'spki' }).toString();
    const key = {
      privateKey,
      publicKey: { keyId, pem, sha256: createHash('sha256').update(spki).digest('hex') },
    };
    this.keys.set(keyId, key);
    return key;
  }
}
