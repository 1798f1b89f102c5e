import { decodeBase64Url, encodeBase64Url } from './base64url.js';
import { DecryptionError } from './crypto-errors.js';
import { KeyRing } from './key-ring.js';

const VERSION = 'v1';
const PURPOSE = 'idp-backup/secret/v1';

/**
 * Encrypts small secrets (OAuth client secrets, API tokens) for a database column.
 *
 * Token: `v1.<kid>.<iv>.<ciphertext>.<tag>`, the last three base64url (RFC 4648, section 5),
 * AES-256-GCM directly under the master key `kid`. No per-secret data key: a secret is as small as
 * a data key, so rotating one (decrypt, encrypt under the new key: {@link reencryptSecret}) costs
 * what re-wrapping would, and the token stays short. The token names its version and key id so
 * old tokens keep opening after a rotation.
 */
export class SecretCipher {
  constructor(private readonly keyRing: KeyRing) {}

  /**
   * @param aad what the secret belongs to (e.g. the connection id); the same value is needed to
   *   decrypt, so a token copied to another row fails. Absent and empty are the same.
   */
  encryptSecret(plaintext: string, aad = ''): string {
    const { kid, box } = this.keyRing.encrypt(Buffer.from(plaintext, 'utf8'), PURPOSE, aad);
    return [VERSION, kid, ...[box.iv, box.ciphertext, box.tag].map(encodeBase64Url)].join('.');
  }

  /**
   * @throws DecryptionError for a malformed token, wrong aad or any altered character
   * @throws UnknownKeyIdError when the token's key id is no longer in the key ring
   */
  decryptSecret(token: string, aad = ''): string {
    const fields = token.split('.');
    if (fields.length !== 5 || fields[0] !== VERSION) {
      throw new DecryptionError(`not a ${VERSION} secret token`);
    }
    const [iv, ciphertext, tag] = fields.slice(2).map(decodeBase64Url);
    if (iv === undefined || ciphertext === undefined || tag === undefined) {
      throw new DecryptionError('secret token is not base64url');
    }
    return this.keyRing
      .decrypt({ kid: fields[1], box: { iv, ciphertext, tag } }, PURPOSE, aad)
      .toString('utf8');
  }

  /** Key id a token was encrypted under, to find tokens that still need rotating. */
  keyIdOf(token: string): string {
    const [version, kid] = token.split('.');
    if (version !== VERSION || kid === undefined) throw new DecryptionError(`not a ${VERSION} secret token`);
    return kid;
  }

  /**
   * Rotation: the same secret under the active master key; unchanged if already under it.
   * @throws as {@link decryptSecret}
   */
  reencryptSecret(token: string, aad = ''): string {
    if (this.keyIdOf(token) === this.keyRing.activeKid) return token;
    return this.encryptSecret(this.decryptSecret(token, aad), aad);
  }
}
