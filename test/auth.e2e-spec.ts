import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import {
  base64url,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose';
import request, { type Response } from 'supertest';
import { DataSource } from 'typeorm';
import { createHttpApp } from '@app/platform/bootstrap/create-app.js';
import { loadConfig } from '@app/platform/config/app-config.js';
import { OidcPayloadAdapter } from '@app/identity/auth/oidc-payload.adapter.js';
import { OidcPayloadsRepository } from '@app/identity/auth/oidc-payloads.repository.js';
import { SIGNING_KEYS, type SigningKeySet } from '@app/identity/auth/signing-keys.service.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

/** A protected route that exists: `manage connections` (spec "Connections"). */
const PROTECTED = '/api/connections';

describe('authentication (spec "Authentication", RFC 6749/6750/8414/8707/9068/9728)', () => {
  let ctx: TestApp;
  let admin: TestClient;
  let prmUrl: string;

  beforeAll(async () => {
    ctx = await startTestApp();
    admin = await ctx.newClient({ role: 'admin' });
    prmUrl = `${ctx.baseUrl}/.well-known/oauth-protected-resource/api/`;
  });

  afterAll(async () => {
    await ctx?.close();
  });

  /** A token as our server signs it, with `changes`; `key` defaults to the server's own signing key. */
  async function mint(
    changes: { claims?: JWTPayload; header?: Record<string, unknown>; key?: JWK } = {},
  ): Promise<string> {
    const ours = ctx.app.get<SigningKeySet>(SIGNING_KEYS).privateJwks[0];
    const key = changes.key ?? ours;
    return new SignJWT({ ...decodeJwt(admin.token), ...changes.claims })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: ours.kid, ...changes.header })
      .sign(await importJWK(key, 'ES256'));
  }

  function expectUnauthorized(response: Response, options: { invalidToken: boolean }): void {
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: expect.any(String), code: 'unauthorized' });
    const tokenError = options.invalidToken ? ', error="invalid_token"' : '';
    expect(response.headers['www-authenticate']).toBe(`Bearer resource_metadata="${prmUrl}"${tokenError}`);
  }

  describe('metadata', () => {
    it('publishes RFC 8414 authorization server metadata, the same document as OpenID discovery', async () => {
      const response = await ctx.http.get('/.well-known/oauth-authorization-server').expect(200);
      expect(response.body).toMatchObject({
        issuer: ctx.baseUrl,
        token_endpoint: `${ctx.baseUrl}/oauth/token`,
        jwks_uri: `${ctx.baseUrl}/oauth/jwks`,
        revocation_endpoint: `${ctx.baseUrl}/oauth/revoke`,
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      });
      expect(response.body.grant_types_supported).toContain('client_credentials');
      expect(response.body.scopes_supported).toContain('api');
      const discovery = await ctx.http.get('/.well-known/openid-configuration').expect(200);
      expect(discovery.body).toEqual(response.body);
    });

    it('names endpoints after BASE_URL whatever Host and X-Forwarded-* a caller sends', async () => {
      const response = await ctx.http
        .get('/.well-known/oauth-authorization-server')
        .set('Host', 'evil.example')
        .set('X-Forwarded-Host', 'evil.example')
        .set('X-Forwarded-Proto', 'https')
        .expect(200);
      expect(response.body.token_endpoint).toBe(`${ctx.baseUrl}/oauth/token`);
    });

    it('publishes only public signing keys', async () => {
      const response = await ctx.http.get('/oauth/jwks').expect(200);
      expect(response.body.keys).toHaveLength(1);
      const [key] = response.body.keys;
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      expect(key).not.toHaveProperty('d');
      expect(key.kid).toBe(decodeProtectedHeader(admin.token).kid);
    });

    it.each(['/.well-known/oauth-protected-resource/api/', '/.well-known/oauth-protected-resource'])(
      'publishes RFC 9728 protected resource metadata at %s without authentication',
      async (path) => {
        const response = await ctx.http.get(path).expect(200);
        expect(response.body).toMatchObject({
          resource: ctx.config.API_RESOURCE,
          authorization_servers: [ctx.baseUrl],
          bearer_methods_supported: ['header'],
          scopes_supported: ['api'],
        });
      },
    );
  });

  describe('token endpoint (client_credentials)', () => {
    it('issues an RFC 9068 JWT for the API resource', async () => {
      const response = await ctx.http
        .post('/oauth/token')
        .auth(admin.clientId, admin.clientSecret)
        .type('form')
        .send({ grant_type: 'client_credentials', resource: ctx.config.API_RESOURCE })
        .expect(200);
      expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: ctx.config.ACCESS_TOKEN_TTL });
      const token = response.body.access_token as string;
      expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
      const claims = decodeJwt(token);
      expect(claims).toMatchObject({
        iss: ctx.baseUrl,
        aud: ctx.config.API_RESOURCE,
        client_id: admin.clientId,
        sub: admin.clientId,
      });
      expect(claims.exp! - claims.iat!).toBe(ctx.config.ACCESS_TOKEN_TTL);
    });

    it('defaults the resource to the API and accepts client_secret_post', async () => {
      const response = await ctx.http
        .post('/oauth/token')
        .type('form')
        .send({
          grant_type: 'client_credentials',
          client_id: admin.clientId,
          client_secret: admin.clientSecret,
        })
        .expect(200);
      expect(decodeJwt(response.body.access_token).aud).toBe(ctx.config.API_RESOURCE);
    });

    it('answers invalid_target for any other resource (RFC 8707)', async () => {
      const response = await ctx.http
        .post('/oauth/token')
        .auth(admin.clientId, admin.clientSecret)
        .type('form')
        .send({ grant_type: 'client_credentials', resource: 'https://other.example.com/api/' });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('invalid_target');
    });

    it('answers unsupported_token_type to revoking a JWT access token (RFC 7009 §2.2.1): revoke the client', async () => {
      const response = await ctx.http
        .post('/oauth/revoke')
        .auth(admin.clientId, admin.clientSecret)
        .type('form')
        .send({ token: admin.token, token_type_hint: 'access_token' });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('unsupported_token_type');
    });

    it.each([
      ['a wrong secret', (c: TestClient) => [c.clientId, `${c.clientSecret}x`]],
      ['an unknown client', (c: TestClient) => ['ic_unknownunknownunknown', c.clientSecret]],
    ])('answers invalid_client for %s', async (_case, credentials) => {
      const [id, secret] = credentials(admin);
      const response = await ctx.http
        .post('/oauth/token')
        .auth(id, secret)
        .type('form')
        .send({ grant_type: 'client_credentials' });
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('invalid_client');
    });
  });

  describe('protected API routes', () => {
    it('serves a caller whose role holds the permission', async () => {
      const response = await ctx.http.get(PROTECTED).set('Authorization', `Bearer ${admin.token}`);
      expect(response.status).toBe(200);
    });

    it('forbids a role without the permission with 403', async () => {
      const viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
      const response = await ctx.http.get(PROTECTED).set('Authorization', `Bearer ${viewer.token}`);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ error: expect.any(String), code: 'forbidden' });
    });

    it('lets public routes through without a token, and ignores a bad one there', async () => {
      await ctx.http.get('/api/health').expect(200);
      await ctx.http.get('/api/health').set('Authorization', 'Bearer garbage').expect(200);
    });

    it('answers 401 without credentials', async () => {
      expectUnauthorized(await ctx.http.get(PROTECTED), { invalidToken: false });
    });

    it('answers 401 to another authentication scheme', async () => {
      const response = await ctx.http.get(PROTECTED).auth(admin.clientId, admin.clientSecret);
      expectUnauthorized(response, { invalidToken: false });
    });

    it.each<[string, () => Promise<string>]>([
      ['a garbage token', async () => 'garbage'],
      ['a token signed by another key', async () => mint({ key: await otherKey() })],
      [
        'an unsigned token (alg none)',
        async () => {
          const [, payload] = (await mint()).split('.');
          return `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt' }))}.${payload}.`;
        },
      ],
      ['a token of another issuer', () => mint({ claims: { iss: 'https://evil.example.com' } })],
      ['a token for another resource', () => mint({ claims: { aud: 'https://other.example.com/api/' } })],
      ['an expired token', () => mint({ claims: { iat: nowSeconds() - 3600, exp: nowSeconds() - 1800 } })],
      ['an ID-token-like JWT (typ JWT)', () => mint({ header: { typ: 'JWT' } })],
    ])('answers 401 invalid_token to %s', async (_case, token) => {
      const response = await ctx.http.get(PROTECTED).set('Authorization', `Bearer ${await token()}`);
      expectUnauthorized(response, { invalidToken: true });
    });

    it('refuses a token in the query string, even beside a valid header (RFC 6750 §2.3)', async () => {
      const query = `${PROTECTED}?access_token=${admin.token}`;
      expectUnauthorized(await ctx.http.get(query), { invalidToken: false });
      const both = await ctx.http.get(query).set('Authorization', `Bearer ${admin.token}`);
      expectUnauthorized(both, { invalidToken: true });
    });

    it('refuses a token in the body, even beside a valid header (RFC 6750 §2.2)', async () => {
      const response = await ctx.http
        .post(`${PROTECTED}/create`)
        .set('Authorization', `Bearer ${admin.token}`)
        .send({ access_token: admin.token });
      expectUnauthorized(response, { invalidToken: true });
    });

    it('stops accepting a revoked client, at the token endpoint and on the API', async () => {
      const client = await ctx.newClient({ role: 'admin', teamId: admin.teamId });
      await ctx.http.get(PROTECTED).set('Authorization', `Bearer ${client.token}`).expect(200);
      await ctx.app
        .get(DataSource)
        .query('UPDATE oauth_clients SET revoked_at = now() WHERE client_id = $1', [client.clientId]);

      const api = await ctx.http.get(PROTECTED).set('Authorization', `Bearer ${client.token}`);
      expectUnauthorized(api, { invalidToken: true });
      const token = await ctx.http
        .post('/oauth/token')
        .auth(client.clientId, client.clientSecret)
        .type('form')
        .send({ grant_type: 'client_credentials' });
      expect(token.status).toBe(401);
      expect(token.body.error).toBe('invalid_client');
    });
  });

  describe('oidc_payloads storage (oidc-provider adapter)', () => {
    it('stores, finds by each key, consumes, revokes by grant and expires artifacts', async () => {
      const payloads = ctx.app.get(OidcPayloadsRepository);
      const sut = new OidcPayloadAdapter('RefreshToken', payloads);
      const other = new OidcPayloadAdapter('Session', payloads);
      await sut.upsert('rt1', { grantId: 'g1', uid: 'u1', userCode: 'ABCD', accountId: 'a' }, 60);
      await other.upsert('rt1', { uid: 'u1' }, 60);

      expect(await sut.find('rt1')).toEqual({ grantId: 'g1', uid: 'u1', userCode: 'ABCD', accountId: 'a' });
      expect(await sut.findByUid('u1')).toMatchObject({ grantId: 'g1' });
      expect(await sut.findByUserCode('ABCD')).toMatchObject({ grantId: 'g1' });
      await sut.consume('rt1');
      expect((await sut.find('rt1'))?.consumed).toBeCloseTo(nowSeconds(), -1);

      await sut.revokeByGrantId('g1');
      expect(await sut.find('rt1')).toBeUndefined();
      expect(await other.find('rt1')).toEqual({ uid: 'u1' });

      await sut.upsert('old', { grantId: 'g2' }, -1);
      expect(await sut.find('old')).toBeUndefined();
      expect(await payloads.purgeExpired()).toBe(1);
    });
  });

  describe('signing keys', () => {
    it('are stored encrypted, and replicas booting together agree on one key', async () => {
      const db = ctx.app.get(DataSource);
      const [stored] = await db.query('SELECT kid, private_jwk_enc FROM oauth_signing_keys');
      const ours = ctx.app.get<SigningKeySet>(SIGNING_KEYS).privateJwks[0];
      expect(stored.kid).toBe(ours.kid);
      expect(stored.private_jwk_enc).not.toContain(ours.d);

      // Two more replicas on the same database, first boot of both at once.
      await db.query('DELETE FROM oauth_signing_keys');
      const replicas = await Promise.all([bootReplica(), bootReplica()]);
      try {
        const [a, b] = await Promise.all(
          replicas.map((replica) => request(replica.getHttpServer()).get('/oauth/jwks').expect(200)),
        );
        expect(a.body.keys).toHaveLength(1);
        expect(b.body).toEqual(a.body);
        expect(await db.query('SELECT kid FROM oauth_signing_keys')).toEqual([{ kid: a.body.keys[0].kid }]);
      } finally {
        await Promise.all(replicas.map((replica) => replica.close()));
      }
    });
  });

  async function bootReplica(): Promise<INestApplication> {
    const config = loadConfig({
      NODE_ENV: 'test',
      BASE_URL: ctx.baseUrl,
      DATA_DIR: ctx.dataDir,
      MASTER_KEY: ctx.config.MASTER_KEY!,
      LOG_LEVEL: 'error',
    });
    const app = await createHttpApp(config, ctx.databaseUrl);
    await app.init();
    return app;
  }
});

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

async function otherKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return exportJWK(privateKey);
}
