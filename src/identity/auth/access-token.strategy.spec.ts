import { beforeAll, describe, expect, it } from '@jest/globals';
import {
  base64url,
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose';
import passport from 'passport';
import { UnauthorizedError } from '@app/common/errors.js';
import { loadConfig } from '@app/platform/config/app-config.js';
import { type AccessTokenClaims, accessTokenRefusal, AccessTokenStrategy } from './access-token.strategy.js';
import type { AuthRequest } from './auth-strategy.js';

const config = loadConfig({ BASE_URL: 'https://backup.example.com' });
const CLIENT = 'ic_0123456789abcdefghijkl';

async function keyPair(kid: string): Promise<{ privateKey: CryptoKey; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

describe('AccessTokenStrategy', () => {
  let ours: { privateKey: CryptoKey; publicJwk: JWK };
  let sut: AccessTokenStrategy;

  /**
   * Runs a request bearing `token` through passport and the strategy, as the auth guard does:
   * the token's claims, or the error the guard throws.
   */
  function verify(token: string): Promise<AccessTokenClaims> {
    const request: AuthRequest = {
      method: 'GET',
      headers: { authorization: `Bearer ${token}` },
      originalUrl: '/api/x',
    };
    return new Promise((resolve, reject) => {
      const authenticate = passport.authenticate(
        sut.name,
        { session: false },
        (error: unknown, claims: AccessTokenClaims | false, challenge: unknown) =>
          error ? reject(error) : claims ? resolve(claims) : reject(accessTokenRefusal(challenge)),
      );
      authenticate(request, {}, reject);
    });
  }

  /** A token as the authorization server issues it, with `changes` applied. */
  function mint(
    changes: { claims?: JWTPayload; header?: Record<string, unknown>; key?: CryptoKey } = {},
  ): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      iss: config.BASE_URL,
      aud: config.API_RESOURCE,
      sub: CLIENT,
      client_id: CLIENT,
      iat: now,
      exp: now + 600,
      jti: 'j1',
      ...changes.claims,
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'ours', ...changes.header })
      .sign(changes.key ?? ours.privateKey);
  }

  async function rejection(token: string): Promise<string> {
    const error = await verify(token).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UnauthorizedError);
    return ((error as UnauthorizedError).getResponse() as { error: string }).error;
  }

  beforeAll(async () => {
    ours = await keyPair('ours');
    sut = new AccessTokenStrategy(
      'access-token',
      { issuer: config.BASE_URL, audience: config.API_RESOURCE },
      { privateJwks: [], publicJwks: [ours.publicJwk] },
      (claims, done) => done(null, claims),
    );
    passport.use(sut);
  });

  it('accepts a token of ours for the API and names its client', async () => {
    await expect(verify(await mint())).resolves.toEqual({ clientId: CLIENT, subject: CLIENT });
  });

  it('tolerates a few seconds of clock skew', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(verify(await mint({ claims: { exp: now - 2, nbf: now + 2 } }))).resolves.toBeDefined();
  });

  it('refuses garbage', async () => {
    expect(await rejection('not.a.jwt')).toMatch(/not valid/);
  });

  it('refuses a token signed by another key, even under our kid', async () => {
    const other = await keyPair('ours');
    expect(await rejection(await mint({ key: other.privateKey }))).toMatch(/not valid/);
  });

  it('refuses alg none', async () => {
    const [, payload] = (await mint()).split('.');
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: 'ours' }));
    expect(await rejection(`${header}.${payload}.`)).toMatch(/not valid/);
  });

  it('refuses an HS256 token keyed with our public key (algorithm confusion)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({
      iss: config.BASE_URL,
      aud: config.API_RESOURCE,
      sub: CLIENT,
      client_id: CLIENT,
      iat: now,
      exp: now + 60,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: 'ours' })
      .sign(new TextEncoder().encode(JSON.stringify(ours.publicJwk)));
    expect(await rejection(token)).toMatch(/not valid/);
  });

  it.each([
    ['another issuer', { iss: 'https://evil.example.com' }],
    ['another audience', { aud: 'https://backup.example.com/other/' }],
    ['the API among other audiences', { aud: [config.API_RESOURCE, 'https://other.example.com/'] }],
    ['no client_id', { client_id: undefined }],
    ['a token not valid yet', { nbf: Math.floor(Date.now() / 1000) + 120 }],
  ])('refuses %s', async (_case, claims) => {
    expect(await rejection(await mint({ claims }))).toMatch(/not valid/);
  });

  it('refuses a plain JWT that is not an access token (typ)', async () => {
    expect(await rejection(await mint({ header: { typ: 'JWT' } }))).toMatch(/not valid/);
  });

  it('refuses an expired token and says so', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    expect(await rejection(await mint({ claims: { iat: past - 600, exp: past } }))).toMatch(/expired/);
  });
});
