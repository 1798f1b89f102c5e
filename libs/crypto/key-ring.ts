import { hkdfSync } from 'node:crypto';

import { GcmBox, IV_BYTES, KEY_BYTES, TAG_BYTES, gcmDecrypt, gcmEncrypt } from './aes-gcm.js';
import { decodeBase64Url, encodeBase64Url } from './base64url.js';
import { DecryptionError, InvalidMasterKeyError, UnknownKeyIdError } from './crypto-errors.js';
import { MasterKeyEntry, assertKeyId, parseMasterKeySpec } from './master-key-spec.js';

/** A data key wrapped under a master key: `wrapped` is base64url(iv[12] | ciphertext[32] | tag[16]). */
export interface WrappedKey {
  kid: string;
  wrapped: string;
}

/** A message encrypted under a master key, with the id of that key. */
export interface MasterSealed {
  kid: string;
  box: GcmBox;
}

/** The AAD purpose that keeps wrapped data keys from being opened as secrets and vice versa. */
const DATA_KEY_PURPOSE = 'idp-backup/data-key/v1';
const WRAPPED_BYTES = IV_BYTES + KEY_BYTES + TAG_BYTES;

/**
 * Master keys by key id, one of them active. The active key encrypts; every key decrypts what
 * names its id, so rotating is: put a new key first in the list, re-wrap (see `rewrap`), then
 * drop the old key once nothing names it.
 *
 * Master keys encrypt only small things (data keys, DB secrets) with random 96-bit IVs, far below
 * the 2^32 messages per key NIST SP 800-38D (section 8.3) allows.
 */
export class KeyRing {
  readonly #keys: ReadonlyMap<string, Buffer>;
  readonly activeKid: string;

  /**
   * @param entries master keys of 32 bytes each, the active one first; key ids unique
   * @throws InvalidMasterKeyError when empty, a key is not 32 bytes, or a key id is bad or repeated
   */
  constructor(entries: readonly MasterKeyEntry[]) {
    if (entries.length === 0) throw new InvalidMasterKeyError('key ring needs at least one master key');
    const keys = new Map<string, Buffer>();
    for (const { kid, key } of entries) {
      assertKeyId(kid, 'key ring');
      if (key.length !== KEY_BYTES) {
        throw new InvalidMasterKeyError(
          `key ring: key "${kid}" must be ${KEY_BYTES} bytes, got ${key.length}`,
        );
      }
      if (keys.has(kid)) throw new InvalidMasterKeyError(`key ring: key id "${kid}" appears more than once`);
      keys.set(kid, Buffer.from(key));
    }
    this.#keys = keys;
    this.activeKid = entries[0].kid;
  }

  /**
   * Builds a key ring from a `MASTER_KEY`-style string (see `parseMasterKeySpec` for the forms).
   * @throws InvalidMasterKeyError with a message that names the problem, never the key
   */
  static parse(spec: string): KeyRing {
    return new KeyRing(parseMasterKeySpec(spec));
  }

  /** All key ids, active first. */
  get kids(): string[] {
    return [...this.#keys.keys()];
  }

  has(kid: string): boolean {
    return this.#keys.has(kid);
  }

  /**
   * AES-256-GCM under the active master key. The AAD binds `purpose` (a domain label such as
   * `idp-backup/secret/v1`), the key id and the caller's `aad`, so a ciphertext made for one
   * purpose or row never opens as another.
   */
  encrypt(plaintext: Buffer, purpose: string, aad = ''): MasterSealed {
    const kid = this.activeKid;
    return { kid, box: gcmEncrypt(this.#key(kid), plaintext, bindAad(purpose, kid, aad)) };
  }

  /**
   * Inverse of {@link encrypt}, under whichever master key `sealed.kid` names.
   * @throws UnknownKeyIdError when the key id is not in the ring
   * @throws DecryptionError when purpose, aad or any byte differs
   */
  decrypt(sealed: MasterSealed, purpose: string, aad = ''): Buffer {
    return gcmDecrypt(this.#key(sealed.kid), sealed.box, bindAad(purpose, sealed.kid, aad));
  }

  /** Wraps a 32-byte data key under the active master key (AES-256-GCM key wrapping). */
  wrapKey(dataKey: Buffer): WrappedKey {
    if (dataKey.length !== KEY_BYTES) throw new RangeError(`data key must be ${KEY_BYTES} bytes`);
    const { kid, box } = this.encrypt(dataKey, DATA_KEY_PURPOSE);
    return { kid, wrapped: encodeBase64Url(Buffer.concat([box.iv, box.ciphertext, box.tag])) };
  }

  /**
   * @returns the 32-byte data key
   * @throws UnknownKeyIdError when `kid` is not in the ring; DecryptionError when tampered or malformed
   */
  unwrapKey(wrappedKey: WrappedKey): Buffer {
    const bytes = decodeBase64Url(wrappedKey.wrapped);
    if (bytes === undefined || bytes.length !== WRAPPED_BYTES) {
      throw new DecryptionError('malformed wrapped key');
    }
    const box = {
      iv: bytes.subarray(0, IV_BYTES),
      ciphertext: bytes.subarray(IV_BYTES, IV_BYTES + KEY_BYTES),
      tag: bytes.subarray(IV_BYTES + KEY_BYTES),
    };
    return this.decrypt({ kid: wrappedKey.kid, box }, DATA_KEY_PURPOSE);
  }

  /**
   * A 32-byte key for one purpose (a MAC of signed URLs...), derived from master key `kid` with
   * HKDF-SHA256 (RFC 5869) labelled by the purpose, so no derived key is valid in another role
   * and none reveals the master key.
   * @throws UnknownKeyIdError when the ring lacks `kid`
   */
  deriveKey(purpose: string, kid: string = this.activeKid): Buffer {
    return Buffer.from(
      hkdfSync('sha256', this.#key(kid), Buffer.alloc(0), `idp-backup/${purpose}/v1`, KEY_BYTES),
    );
  }

  #key(kid: string): Buffer {
    const key = this.#keys.get(kid);
    if (key === undefined) throw new UnknownKeyIdError(kid);
    return key;
  }
}

/** A JSON array is an unambiguous encoding of the three strings, whatever characters they hold. */
function bindAad(purpose: string, kid: string, aad: string): Buffer {
  return Buffer.from(JSON.stringify([purpose, kid, aad]), 'utf8');
}
