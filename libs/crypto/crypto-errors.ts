/**
 * Ciphertext that does not open: wrong key, wrong associated data, or altered bytes.
 * AES-GCM cannot tell these apart (NIST SP 800-38D, section 7.2: only FAIL is returned),
 * so neither do we; the message says which step failed, never any key or plaintext.
 */
export class DecryptionError extends Error {
  override readonly name: string = 'DecryptionError';
}

/** The key id named by a ciphertext is not in the key ring (a retired master key was dropped). */
export class UnknownKeyIdError extends DecryptionError {
  override readonly name: string = 'UnknownKeyIdError';

  constructor(readonly kid: string) {
    super(`no master key with key id "${kid}" in the key ring`);
  }
}

/** A master key specification that cannot be used; the message never repeats key material. */
export class InvalidMasterKeyError extends Error {
  override readonly name: string = 'InvalidMasterKeyError';
}
