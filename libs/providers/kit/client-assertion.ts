import { createHash, randomUUID, X509Certificate } from 'node:crypto';
import { importPKCS8, SignJWT } from 'jose';

/** The JWS algorithms a client assertion is signed with: what Okta and Microsoft accept. */
export type ClientAssertionAlgorithm = 'RS256' | 'PS256' | 'ES256';

/**
 * A private key a connector proves itself with instead of a secret: the `private_key_jwt` client
 * authentication of OpenID Connect Core §9, carried as RFC 7523 §2.2 `client_assertion`. Okta's
 * API service apps accept it with the public key registered on the app (matched by `kid`); Entra
 * ID with a certificate uploaded to the app registration (matched by its thumbprint).
 */
export interface ClientAssertionKey {
  /** PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), RSA for RS256/PS256, P-256 for ES256 */
  privateKeyPem: string;
  alg: ClientAssertionAlgorithm;
  /** `kid` header: the id of the public key registered at the provider (Okta). */
  keyId?: string;
  /**
   * The X.509 certificate of the key, PEM: its SHA-256 thumbprint goes in the `x5t#S256` header
   * (learn.microsoft.com/entra/identity-platform/certificate-credentials, "Header").
   */
  certificatePem?: string;
}

/** RFC 7521 §4.2: the `client_assertion_type` of a JWT client assertion. */
export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Lifetime of one assertion, seconds: Microsoft asks for 5 to 10 minutes at most after `nbf`. */
const ASSERTION_LIFETIME_S = 300;

/**
 * Signs one client assertion (RFC 7523 §3): `iss` and `sub` the client id, `aud` the token
 * endpoint, a fresh `jti` (RFC 7519 §4.1.7, so the provider can refuse a replay), `iat`/`nbf` now
 * and `exp` five minutes later.
 * @param nowMs the clock, milliseconds since the epoch
 * @throws Error when the key is not PKCS#8 PEM for `alg`, or the certificate does not parse
 */
export async function signClientAssertion(
  key: ClientAssertionKey,
  clientId: string,
  tokenUrl: URL,
  nowMs: number,
): Promise<string> {
  const privateKey = await importPKCS8(key.privateKeyPem, key.alg);
  const nowS = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({
      alg: key.alg,
      typ: 'JWT',
      ...(key.keyId ? { kid: key.keyId } : {}),
      ...(key.certificatePem ? { 'x5t#S256': certificateThumbprint(key.certificatePem) } : {}),
    })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(tokenUrl.href)
    .setJti(randomUUID())
    .setIssuedAt(nowS)
    .setNotBefore(nowS)
    .setExpirationTime(nowS + ASSERTION_LIFETIME_S)
    .sign(privateKey);
}

/** Base64url SHA-256 of the certificate's DER encoding (RFC 7515 §4.1.8 `x5t#S256`). */
export function certificateThumbprint(certificatePem: string): string {
  return createHash('sha256').update(new X509Certificate(certificatePem).raw).digest('base64url');
}
