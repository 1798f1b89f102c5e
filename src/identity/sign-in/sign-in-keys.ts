import { hkdfSync, randomBytes } from 'node:crypto';
import type { SecurityService } from '@app/platform/security/security.service.js';
import type { SignInSecretsRepository } from './sign-in-secrets.repository.js';

/** Injection token of the loaded {@link SignInKeys}. */
export const SIGN_IN_KEYS = Symbol('SIGN_IN_KEYS');

/** HMAC-SHA256 keys of sign-in, 32 bytes each, one per purpose so no MAC is valid in another role. */
export interface SignInKeys {
  /** Keys the stored hash of e-mail codes. */
  emailCode: Buffer;
  /** Signs the cookie that carries state, nonce and PKCE verifier during an identity provider sign-in. */
  flowCookie: Buffer;
}

const SECRET_NAME = 'sign-in-root';

/** Binds a stored sign-in secret to its row (also read by key rotation). */
export function signInSecretAad(name: string): string {
  return `sign-in-secret:${name}`;
}

/**
 * Loads the sign-in root secret (32 random bytes made on first boot, stored encrypted under the
 * master key) and derives the purpose keys from it with HKDF-SHA256 (RFC 5869), each labelled
 * by its purpose.
 * @throws DecryptionError when the stored secret cannot be opened with the configured MASTER_KEY.
 */
export async function loadSignInKeys(
  secrets: SignInSecretsRepository,
  security: SecurityService,
): Promise<SignInKeys> {
  const aad = signInSecretAad(SECRET_NAME);
  const candidate = security.encryptSecret(randomBytes(32).toString('base64url'), aad);
  const root = Buffer.from(
    security.decryptSecret(await secrets.findOrInsert(SECRET_NAME, candidate), aad),
    'base64url',
  );
  const derive = (purpose: string) =>
    Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), `idp-backup/${purpose}/v1`, 32));
  return { emailCode: derive('email-code'), flowCookie: derive('oidc-flow-cookie') };
}
