import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { decodeProtectedHeader, importX509, jwtVerify } from 'jose';
import { selfSignedCertificate } from '@libs/simulators/kit/tls/certificates.js';

import { certificateAssertionKey } from './certificate-credential.js';
import { certificateThumbprint, signClientAssertion } from './client-assertion.js';

describe('certificateAssertionKey', () => {
  let mine: { certificatePem: string; privateKeyPem: string };
  let other: { certificatePem: string; privateKeyPem: string };

  beforeAll(async () => {
    [mine, other] = await Promise.all([selfSignedCertificate('backup app'), selfSignedCertificate('other')]);
  });

  it('reads a certificate and its key in either order, and signs PS256 assertions the certificate verifies', async () => {
    const tokenUrl = new URL('https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token');
    for (const pem of [
      `${mine.certificatePem}\n${mine.privateKeyPem}`,
      `${mine.privateKeyPem}${mine.certificatePem}`,
    ]) {
      const key = certificateAssertionKey(pem);
      expect(key).toMatchObject({ alg: 'PS256', certificatePem: mine.certificatePem.trim() });
      const assertion = await signClientAssertion(key, 'client', tokenUrl, Date.now());
      expect(decodeProtectedHeader(assertion)).toMatchObject({
        alg: 'PS256',
        'x5t#S256': certificateThumbprint(mine.certificatePem),
      });
      const { payload } = await jwtVerify(assertion, await importX509(mine.certificatePem, 'PS256'), {
        audience: tokenUrl.href,
        issuer: 'client',
        subject: 'client',
      });
      expect(payload.jti).toEqual(expect.any(String));
    }
  });

  it('accepts a PKCS#1 RSA key', () => {
    const pkcs1 = createPrivateKey(mine.privateKeyPem).export({ type: 'pkcs1', format: 'pem' }).toString();
    expect(pkcs1).toContain('BEGIN RSA PRIVATE KEY');
    expect(certificateAssertionKey(`${mine.certificatePem}${pkcs1}`).alg).toBe('PS256');
  });

  it('refuses a missing part, a key of another certificate, an encrypted or non-RSA key, never quoting the PEM', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    const encrypted = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
      cipher: 'aes-256-cbc',
      passphrase: 'p',
    });
    const cases: Array<[string, RegExp]> = [
      [mine.certificatePem, /holds no PEM private key/],
      [mine.privateKeyPem, /holds no PEM certificate/],
      [`${mine.certificatePem}${other.privateKeyPem}`, /not the certificate's/],
      [`${mine.certificatePem}${String(encrypted)}`, /unencrypted/],
      [`${mine.certificatePem}${String(ec)}`, /RSA key/],
      [
        `-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----\n${mine.privateKeyPem}`,
        /not a readable/,
      ],
    ];
    for (const [pem, message] of cases) {
      const error = (() => {
        try {
          certificateAssertionKey(pem);
        } catch (caught) {
          return caught as Error & { code: string };
        }
        return undefined;
      })();
      expect(error).toMatchObject({
        code: 'invalid_client_certificate',
        message: expect.stringMatching(message),
      });
      expect(error!.message).not.toContain('-----');
    }
  });
});
