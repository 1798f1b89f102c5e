import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  X509Certificate,
} from 'node:crypto';
import { decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import { ProviderAuthError } from '@libs/providers/provider-errors.js';
import { type LoopbackHttps, startLoopbackHttps } from '@libs/simulators/kit/tls/loopback-https.js';
import { JWT_BEARER_ASSERTION_TYPE } from './client-assertion.js';
import { ClientCredentialsTokenSource, type ClientAuthentication } from './client-credentials.js';
import { ConnectorStatsRecorder } from './connector-stats.js';
import { HttpTransport } from './http-transport.js';
import { RateLimitGovernor } from './rate-limit-governor.js';
import { retryAfterSignal } from './retry-after.js';

const CLIENT_ID = '0oa-assertion-client';

/**
 * `private_key_jwt` against a loopback HTTPS token endpoint that checks the assertion the way
 * RFC 7523 §3 asks an authorization server to (signature with the registered public key, `iss`
 * and `sub` the client, `aud` the endpoint, `exp`, a `jti`), and answers a token or
 * `invalid_client`.
 */
describe('ClientCredentialsTokenSource with a client assertion (private_key_jwt)', () => {
  let server: LoopbackHttps;
  let origin: string;
  /** The key the endpoint verifies with: the app's registered public key. */
  let registered: KeyObject;
  const seen: Array<{ form: URLSearchParams; authorization?: string; claims?: JWTPayload }> = [];
  let rsa: { privateKeyPem: string; certificatePem: string };

  beforeAll(async () => {
    server = await startLoopbackHttps((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const entry: (typeof seen)[number] = { form, authorization: req.headers.authorization };
        seen.push(entry);
        const answer = (status: number, json: object) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(json));
        };
        jwtVerify(form.get('client_assertion') ?? '', registered, {
          issuer: CLIENT_ID,
          subject: CLIENT_ID,
          audience: `${origin}/oauth2/v2.0/token`,
          requiredClaims: ['jti', 'exp', 'iat'],
        }).then(
          ({ payload }) => {
            entry.claims = payload;
            answer(200, { access_token: `token-${payload.jti}`, token_type: 'Bearer', expires_in: 3600 });
          },
          (error: Error) => answer(401, { error: 'invalid_client', error_description: error.message }),
        );
      });
    });
    origin = server.origin;
    // The app's certificate credential: the loopback server's certificate and key will do.
    const { serverKeyPem, serverCertPem } = server.tls;
    rsa = {
      privateKeyPem: createPrivateKey(serverKeyPem).export({ type: 'pkcs8', format: 'pem' }).toString(),
      certificatePem: serverCertPem,
    };
    registered = createPublicKey(serverKeyPem);
  });

  afterAll(() => server?.close());

  function tokenSource(authentication: ClientAuthentication): ClientCredentialsTokenSource {
    const governor = new RateLimitGovernor({
      signals: [retryAfterSignal],
      maxConcurrency: 1,
      headroom: 0.2,
      maxAttempts: 1,
      baseDelayMs: 1,
      maxDelayMs: 1,
      resetJitterMs: 0,
    });
    const transport = new HttpTransport({
      provider: 'Graph',
      origin,
      allowedHosts: ['127.0.0.1'],
      dispatcher: server.agent,
      governor,
      stats: new ConnectorStatsRecorder(),
      userAgent: 'kit-spec',
    });
    return new ClientCredentialsTokenSource(transport, {
      provider: 'Graph',
      tokenUrl: new URL('/oauth2/v2.0/token', origin),
      template: '/oauth2/v2.0/token',
      clientId: CLIENT_ID,
      scopes: ['https://graph.microsoft.com/.default'],
      notBearerHint: 'n/a',
      ...authentication,
    });
  }

  it("signs with a certificate as Entra asks (PS256, x5t#S256 the certificate's SHA-256 thumbprint)", async () => {
    const source = tokenSource({ assertionKey: { ...rsa, alg: 'PS256' } });
    const token = await source.accessToken();

    const request = seen.at(-1)!;
    expect(token).toBe(`token-${String(request.claims?.jti)}`);
    expect(request.authorization).toBeUndefined();
    expect(request.form.get('client_assertion_type')).toBe(JWT_BEARER_ASSERTION_TYPE);
    expect(request.form.get('client_id')).toBe(CLIENT_ID);
    expect(request.form.get('grant_type')).toBe('client_credentials');
    expect(request.form.get('scope')).toBe('https://graph.microsoft.com/.default');
    const header = decodeProtectedHeader(request.form.get('client_assertion')!);
    expect(header).toMatchObject({ alg: 'PS256', typ: 'JWT' });
    // X509Certificate.fingerprint256 is the SHA-256 of the DER certificate, hex with colons.
    const fingerprint = new X509Certificate(rsa.certificatePem).fingerprint256.replaceAll(':', '');
    expect(Buffer.from(String(header['x5t#S256']), 'base64url').toString('hex').toUpperCase()).toBe(
      fingerprint,
    );
    const claims = request.claims!;
    expect(claims.exp! - claims.iat!).toBe(300);
    expect(claims.nbf).toBe(claims.iat);
  });

  it('signs each token request anew (a fresh jti) and names the key by kid when given (Okta)', async () => {
    const first = tokenSource({
      assertionKey: { privateKeyPem: rsa.privateKeyPem, alg: 'RS256', keyId: 'k1' },
    });
    const second = tokenSource({
      assertionKey: { privateKeyPem: rsa.privateKeyPem, alg: 'RS256', keyId: 'k1' },
    });
    await first.accessToken();
    await second.accessToken();
    const [a, b] = seen.slice(-2);
    expect(decodeProtectedHeader(a.form.get('client_assertion')!)).toMatchObject({ alg: 'RS256', kid: 'k1' });
    expect(a.claims?.jti).toEqual(expect.any(String));
    expect(a.claims?.jti).not.toBe(b.claims?.jti);
  });

  it("is refused with the provider's answer when signed by a key the app does not hold", async () => {
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const source = tokenSource({
      assertionKey: {
        privateKeyPem: stranger.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        alg: 'RS256',
      },
    });
    const refusal = await source.accessToken().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ProviderAuthError);
    expect((refusal as Error).message).toMatch(/^Graph refused the client credentials: invalid_client: /);
    expect((refusal as Error).message).not.toContain('PRIVATE KEY');
  });

  it('still authenticates with a secret in the Basic header, and sends no assertion', async () => {
    const source = tokenSource({ clientSecret: 's3cr:et' });
    await source.accessToken().catch(() => undefined);
    const request = seen.at(-1)!;
    expect(request.authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:s3cr%3Aet`).toString('base64')}`);
    expect(request.form.has('client_assertion')).toBe(false);
  });
});
