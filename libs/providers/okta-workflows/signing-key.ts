import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { ClientAssertionKey } from '@libs/providers/kit/client-assertion.js';
import { ProviderError } from '@libs/providers/provider-errors.js';

/**
 * The API Services app's private key as the connection holds it: a PEM (PKCS#8 `PRIVATE KEY` or
 * PKCS#1 `RSA PRIVATE KEY`, as the Admin Console's "Generate new key" offers it) or the private JWK
 * the console shows beside it (its `kid` then names the key in the assertion's header; Okta
 * "Implement OAuth for Okta with a service app"). RSA keys sign RS256, P-256 keys ES256.
 * @throws ProviderError `invalid_private_key` when it is neither, or a public key, or another curve
 */
export function assertionKeyOf(privateKey: string): ClientAssertionKey {
  const text = privateKey.trim();
  let key: KeyObject;
  let keyId: string | undefined;
  try {
    if (text.startsWith('{')) {
      const jwk = JSON.parse(text) as Record<string, unknown>;
      keyId = typeof jwk.kid === 'string' ? jwk.kid : undefined;
      key = createPrivateKey({ key: jwk as never, format: 'jwk' });
    } else key = createPrivateKey(text);
  } catch {
    throw new ProviderError(
      'private_key must be the API Services app private key, as a PEM or a private JWK',
      'invalid_private_key',
    );
  }
  const alg =
    key.asymmetricKeyType === 'rsa'
      ? 'RS256'
      : key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1'
        ? 'ES256'
        : undefined;
  if (!alg)
    throw new ProviderError(
      'private_key must be an RSA or a P-256 key (Okta signs RS256 or ES256)',
      'invalid_private_key',
    );
  return { privateKeyPem: key.export({ type: 'pkcs8', format: 'pem' }).toString(), alg, keyId };
}
