import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';

import { ProviderError } from '@libs/providers/provider-errors.js';
import type { ClientAssertionKey } from './client-assertion.js';

const CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;
const PRIVATE_KEY =
  /-----BEGIN ((?:RSA |EC |ENCRYPTED )?)PRIVATE KEY-----[\s\S]+?-----END \1PRIVATE KEY-----/;

/**
 * The client assertion key of a certificate credential given as one PEM text holding the X.509
 * certificate registered with the provider and its private key (PKCS#8 or PKCS#1, unencrypted),
 * in either order, as `openssl` and `Export-PfxCertificate | openssl pkcs12 -nodes` write them.
 * Signs PS256 with the certificate's SHA-256 thumbprint (`x5t#S256`), what Microsoft's
 * "certificate credentials" page asks for.
 *
 * @throws ProviderError `invalid_client_certificate` when either part is missing or unreadable,
 *   the key is encrypted or not RSA, or the key is not the certificate's; the message never
 *   quotes the PEM
 */
export function certificateAssertionKey(pem: string): ClientAssertionKey {
  const refuse = (why: string): never => {
    throw new ProviderError(`client_certificate ${why}`, 'invalid_client_certificate');
  };
  const certificatePem = CERTIFICATE.exec(pem)?.[0] ?? refuse('holds no PEM certificate');
  const keyMatch = PRIVATE_KEY.exec(pem) ?? refuse('holds no PEM private key');
  if (keyMatch[1] === 'ENCRYPTED ') refuse('must hold its private key unencrypted');
  let certificate: X509Certificate;
  let privateKey: KeyObject;
  try {
    certificate = new X509Certificate(certificatePem);
    privateKey = createPrivateKey(keyMatch[0]);
  } catch {
    return refuse('is not a readable certificate and private key');
  }
  if (privateKey.asymmetricKeyType !== 'rsa') refuse('must hold an RSA key');
  if (!certificate.checkPrivateKey(privateKey)) refuse("holds a private key that is not the certificate's");
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    alg: 'PS256',
    certificatePem,
  };
}
