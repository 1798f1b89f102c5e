import { randomBytes } from 'node:crypto';

import { KEY_BYTES } from './aes-gcm.js';
import { KeyRing, WrappedKey } from './key-ring.js';

/** A fresh random 32-byte AES-256 data key (one per snapshot, never stored unwrapped). */
export function generateDataKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/**
 * Key rotation: re-wraps a data key under the key ring's active master key. Only the 60-byte
 * wrapped key changes; the data it protects is not re-encrypted. A key already wrapped under the
 * active key is returned as is.
 * @throws UnknownKeyIdError / DecryptionError when the wrapped key does not open with `keyRing`
 */
export function rewrap(wrappedKey: WrappedKey, keyRing: KeyRing): WrappedKey {
  if (wrappedKey.kid === keyRing.activeKid) return wrappedKey;
  const dataKey = keyRing.unwrapKey(wrappedKey);
  try {
    return keyRing.wrapKey(dataKey);
  } finally {
    dataKey.fill(0);
  }
}
