import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

import { DecryptionError } from './crypto-errors.js';

/** AES-256 key length in bytes. */
export const KEY_BYTES = 32;
/** 96-bit IVs: the length NIST SP 800-38D (section 5.2.1.1) recommends for GCM. */
export const IV_BYTES = 12;
/** Full 128-bit tags; shorter tags weaken forgery resistance (NIST SP 800-38D, section 5.2.1.2). */
export const TAG_BYTES = 16;

/** One AES-256-GCM encryption result; all three parts are needed to decrypt. */
export interface GcmBox {
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

/**
 * AES-256-GCM encryption of one message.
 * @param key 32 bytes
 * @param plaintext any length (GCM caps a message at 2^39 - 256 bits; our callers stay far below)
 * @param aad associated data, authenticated but not encrypted
 * @param iv 12 bytes; random when omitted. Random IVs are safe for up to 2^32 messages per key
 *   (NIST SP 800-38D, section 8.3); callers with deterministic IVs must never repeat one under a key.
 */
export function gcmEncrypt(
  key: Buffer,
  plaintext: Buffer,
  aad: Buffer,
  iv: Buffer = randomBytes(IV_BYTES),
): GcmBox {
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, ciphertext, tag: cipher.getAuthTag() };
}

/**
 * Inverse of {@link gcmEncrypt}. The plaintext is returned only after the tag verifies, so no
 * unauthenticated byte ever reaches a caller.
 * @throws DecryptionError when the key, aad, iv, ciphertext or tag do not match
 */
export function gcmDecrypt(key: Buffer, box: GcmBox, aad: Buffer): Buffer {
  if (box.iv.length !== IV_BYTES || box.tag.length !== TAG_BYTES) {
    throw new DecryptionError('malformed AES-GCM input: bad IV or tag length');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, box.iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(box.tag);
  const head = decipher.update(box.ciphertext);
  try {
    const tail = decipher.final();
    // GCM gives everything from update: no copy of the whole plaintext into a new buffer.
    return tail.length === 0 ? head : Buffer.concat([head, tail]);
  } catch {
    head.fill(0);
    throw new DecryptionError(
      'authentication failed: wrong key, wrong associated data, or altered ciphertext',
    );
  }
}
