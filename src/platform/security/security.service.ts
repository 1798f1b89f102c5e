import { Inject, Injectable } from '@nestjs/common';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import { SecretCipher } from '@libs/crypto/secret-cipher.js';
import { KEY_RING } from './key-ring.provider.js';

/**
 * Encryption of secrets at rest under the master key ring (key ids, DESIGN section 5).
 * `aad` binds a ciphertext to its row (e.g. `connection:<id>:client_secret`), so a
 * ciphertext copied onto another row fails to decrypt.
 */
@Injectable()
export class SecurityService {
  private readonly cipher: SecretCipher;

  constructor(@Inject(KEY_RING) readonly keyRing: KeyRing) {
    this.cipher = new SecretCipher(keyRing);
  }

  /** @returns a versioned, self-describing string safe to store in a text column. */
  encryptSecret(plaintext: string, aad: string): string {
    return this.cipher.encryptSecret(plaintext, aad);
  }

  /** @throws DecryptionError when the ciphertext was altered, moved to another row, or its key id is unknown. */
  decryptSecret(ciphertext: string, aad: string): string {
    return this.cipher.decryptSecret(ciphertext, aad);
  }
}
