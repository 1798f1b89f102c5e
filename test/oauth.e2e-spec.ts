import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { DataSource } from 'typeorm';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { Browser, type BrowserResponse } from './support/browser.js';
import { startDocumentServer, type DocumentServer } from './support/loopback-https.js';
import { latestCode, newAddress } from './support/sign-in-helpers.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Where the test clients want their codes: nothing listens there, the browser stops before it. */
const REDIRECT = 'http://127.0.0.1:7777/callback';

/** A PKCE pair (RFC 7636 §4.1-4.2, S256). */
function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * The authorization server for clients acting for a person (spec "Authentication" items 3-5;
 * docs/auth.md): authorization code with PKCE, refresh token rotation, revocation (RFC 7009),
 * dynamic registration (RFC 7591) and Client ID Metadata Documents, all against the real app.
 */
describe('authorization code flow', () => {
  let docs: DocumentServer;
  let ctx: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    docs = await startDocumentServer();
    ctx = await startTestApp({ AUTH_CA_FILE: docs.caCertPath, OAUTH_CIMD_ALLOW_LOOPBACK: 'true' });
    db = ctx.app.get(DataSource);
  });

  afterAll(async () => {
    await ctx?.close();
    await docs?.close();
  });

  async function newOwner(): Promise<{ email: string; userId: string; teamId: string }> {
    const email = newAddress('owner');
    const { team, owner } = await ctx.app.get(TeamsService).createTeam({ name: 'Acme', ownerEmail: email });
    return { email, userId: owner.id, teamId: team.id };
  }

  /** Registers a client (RFC 7591); public (`none`) unless the metadata says otherwise. */
  async function register(metadata: Record<string, unknown> = {}): Promise<Record<string, string>> {
    const response = await ctx.http.post('/oauth/register').send({
      client_name: 'Backup agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      ...metadata,
    });
    expect(response.status).toBe(201);
    return response.body as Record<string, string>;
  }

  function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'api',
      resource: ctx.config.API_RESOURCE,
      state: randomBytes(8).toString('hex'),
      ...extra,
    });
    return `${ctx.baseUrl}/oauth/authorize?${query}`;
  }

  /** Follows redirects inside the service; stops at the page to show or at the redirect back to the client. */
  function visit(browser: Browser, url: string): Promise<BrowserResponse> {
    return browser.follow(url, (next) => next.startsWith(ctx.baseUrl));
  }

  /** The sign-in page's steps: send a code to `email`, type it in. @returns the answer after following redirects. */
  async function signInOnPage(
    browser: Browser,
    page: BrowserResponse,
    email: string,
  ): Promise<BrowserResponse> {
    expect(page.status).toBe(200);
    expect(page.text).toContain('Send me a code');
    const base = page.url;
    const sent = await browser.postForm(`${base}/send-code`, { email });
    expect([sent.status, sent.text.includes('Check your e-mail')]).toEqual([200, true]);
    const verified = await browser.postForm(`${base}/verify-code`, {
      email,
      code: await latestCode(ctx, email),
    });
    expect([verified.status, verified.location]).toEqual([303, base]);
    return visit(browser, verified.location!);
  }

  /** Answers the consent page. @returns the redirect back to the client. */
  async function consent(browser: Browser, page: BrowserResponse, decision = 'allow'): Promise<URL> {
    expect([page.status, page.text.includes('Allow access?')]).toEqual([200, true]);
    const answer = await browser.postForm(`${page.url}/consent`, { decision });
    const back = await visit(browser, answer.location!);
    expect(back.location?.startsWith(REDIRECT)).toBe(true);
    return new URL(back.location!);
  }

  /** A full authorization of `clientId` by a fresh browser and team owner. */
  async function authorizeAsNewOwner(clientId: string) {
    const owner = await newOwner();
    const browser = new Browser();
    const { verifier, challenge } = pkce();
    const url = authorizeUrl(clientId, challenge);
    const consentPage = await signInOnPage(browser, await visit(browser, url), owner.email);
    const back = await consent(browser, consentPage);
    return { owner, browser, verifier, code: back.searchParams.get('code')!, consentPage };
  }

  function exchange(fields: Record<string, string>, basic?: [string, string]) {
    const request = ctx.http.post('/oauth/token').type('form');
    if (basic) request.auth(basic[0], basic[1]);
    return request.send(fields);
  }

  function redeem(clientId: string, code: string, verifier: string) {
    return exchange({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
    });
  }

  function refresh(clientId: string, refreshToken: string) {
    return exchange({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
  }

  it('advertises what clients need in the authorization server metadata (RFC 8414)', async () => {
    const { body } = await ctx.http.get('/.well-known/oauth-authorization-server').expect(200);
    expect(body).toMatchObject({
      authorization_endpoint: `${ctx.baseUrl}/oauth/authorize`,
      registration_endpoint: `${ctx.baseUrl}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      response_types_supported: ['code'],
    });
    expect(body.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']),
    );
  });

  describe('sign-in, consent, code, token', () => {
    it('gives a registered public client a token for the API that acts as the signed-in person', async () => {
      const client = await register();
      expect(client.client_id).toMatch(/^rc_/);
      expect(client).not.toHaveProperty('client_secret');

      const owner = await newOwner();
      const browser = new Browser();
      const { verifier, challenge } = pkce();
      const url = authorizeUrl(client.client_id, challenge, { state: 'xyz' });
      const signInPage = await visit(browser, url);
      expect(signInPage.url).toMatch(new RegExp(`^${ctx.baseUrl}/interaction/[\\w-]+$`));
      expect(signInPage.text).toContain('Backup agent');
      const consentPage = await signInOnPage(browser, signInPage, owner.email);
      expect(consentPage.text).toContain('Backup agent');
      expect(consentPage.text).toContain('127.0.0.1:7777');
      expect(consentPage.text).toContain('super_admin');
      const back = await consent(browser, consentPage);
      expect(back.searchParams.get('state')).toBe('xyz');
      expect(back.searchParams.get('iss')).toBe(ctx.baseUrl);

      const token = await redeem(client.client_id, back.searchParams.get('code')!, verifier);
      expect(token.status).toBe(200);
      expect(token.body).toMatchObject({
        token_type: 'Bearer',
        expires_in: ctx.config.ACCESS_TOKEN_TTL,
        scope: 'api',
      });
      expect(token.body.refresh_token).toEqual(expect.any(String));
      expect(decodeJwt(token.body.access_token)).toMatchObject({
        iss: ctx.baseUrl,
        aud: ctx.config.API_RESOURCE,
        client_id: client.client_id,
        sub: `${owner.userId}:${owner.teamId}`,
      });
      const list = await ctx.http
        .get('/api/backup/list')
        .set('Authorization', `Bearer ${token.body.access_token}`);
      expect([list.status, list.body.total]).toEqual([200, 0]);
    });

    it("answers GET /api/me for a person's token as that person in the token's team, which it cannot switch", async () => {
      const client = await register();
      const { owner, verifier, code } = await authorizeAsNewOwner(client.client_id);
      const token = (await redeem(client.client_id, code, verifier)).body.access_token as string;
      const me = await ctx.http.get('/api/me').set('Authorization', `Bearer ${token}`).expect(200);
      expect(me.body).toMatchObject({
        authenticated_by: 'access_token',
        user: { id: owner.userId, email: owner.email },
        client: null,
        teams: [{ id: owner.teamId, role: 'super_admin', current: true }],
        current_team: { id: owner.teamId, role: 'super_admin' },
      });
      const refused = await ctx.http
        .post('/api/me/team')
        .set('Authorization', `Bearer ${token}`)
        .send({ teamId: owner.teamId });
      expect([refused.status, refused.body.code]).toEqual([409, 'team_bound_to_token']);
    });

    it('does not ask again: a signed-in browser with a grant goes straight back to the client', async () => {
      const client = await register();
      const { browser } = await authorizeAsNewOwner(client.client_id);
      const again = await visit(browser, authorizeUrl(client.client_id, pkce().challenge));
      expect(again.location?.startsWith(REDIRECT)).toBe(true);
      expect(new URL(again.location!).searchParams.get('code')).toEqual(expect.any(String));
    });

    it('asks to sign in again once the service session is signed out', async () => {
      const client = await register();
      const { browser } = await authorizeAsNewOwner(client.client_id);
      await browser.postJson(`${ctx.baseUrl}/api/auth/sign-out`, {});
      const again = await visit(browser, authorizeUrl(client.client_id, pkce().challenge));
      expect([again.status, again.text.includes('Send me a code')]).toEqual([200, true]);
    });

    it('asks for consent even when the client requests no scope', async () => {
      const client = await register();
      const owner = await newOwner();
      const browser = new Browser();
      const url = authorizeUrl(client.client_id, pkce().challenge, { scope: '' });
      const page = await signInOnPage(browser, await visit(browser, url), owner.email);
      expect(page.text).toContain('Allow access?');
    });

    it('sends access_denied back when the person denies or cancels', async () => {
      const client = await register();
      const owner = await newOwner();
      const browser = new Browser();
      const page = await signInOnPage(
        browser,
        await visit(browser, authorizeUrl(client.client_id, pkce().challenge)),
        owner.email,
      );
      const denied = await consent(browser, page, 'deny');
      expect(denied.searchParams.get('error')).toBe('access_denied');

      const other = new Browser();
      const signIn = await visit(other, authorizeUrl(client.client_id, pkce().challenge));
      const cancelled = await visit(other, (await other.postForm(`${signIn.url}/abort`, {})).location!);
      expect(new URL(cancelled.location!).searchParams.get('error')).toBe('access_denied');
    });

    it('refuses a consent posted from another origin', async () => {
      const client = await register();
      const owner = await newOwner();
      const browser = new Browser();
      const page = await signInOnPage(
        browser,
        await visit(browser, authorizeUrl(client.client_id, pkce().challenge)),
        owner.email,
      );
      const forged = await browser.postForm(
        `${page.url}/consent`,
        { decision: 'allow' },
        { origin: 'https://evil.example' },
      );
      expect(forged.status).toBe(403);
    });

    it('escapes what the client says about itself on the pages', async () => {
      const client = await register({ client_name: '<script>alert(1)</script>' });
      const page = await visit(new Browser(), authorizeUrl(client.client_id, pkce().challenge));
      expect(page.text).not.toContain('<script>alert(1)</script>');
      expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
    });
  });

  describe('PKCE (S256, every client)', () => {
    it('is required from a public client', async () => {
      const client = await register();
      const url = new URL(authorizeUrl(client.client_id, 'x'));
      url.searchParams.delete('code_challenge');
      url.searchParams.delete('code_challenge_method');
      const back = await visit(new Browser(), url.href);
      expect(new URL(back.location!).searchParams.get('error')).toBe('invalid_request');
    });

    it('is required from a confidential client too, whose secret is stored hashed', async () => {
      const client = await register({ token_endpoint_auth_method: 'client_secret_basic' });
      expect(client.client_secret).toEqual(expect.any(String));
      const [row] = await db.query(
        "SELECT payload->>'client_secret' AS secret FROM oidc_payloads WHERE type = 'Client' AND id = $1",
        [client.client_id],
      );
      expect(row.secret).toBe(
        `sha256:${createHash('sha256').update(client.client_secret).digest('base64url')}`,
      );

      const url = new URL(authorizeUrl(client.client_id, 'x'));
      url.searchParams.delete('code_challenge');
      const refused = await visit(new Browser(), url.href);
      expect(new URL(refused.location!).searchParams.get('error')).toBe('invalid_request');

      const { code, verifier } = await authorizeAsNewOwner(client.client_id);
      const fields = {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
      };
      const wrongSecret = await exchange(fields, [client.client_id, `${client.client_secret}x`]);
      expect([wrongSecret.status, wrongSecret.body.error]).toEqual([401, 'invalid_client']);
      const token = await exchange(fields, [client.client_id, client.client_secret]);
      expect(token.status).toBe(200);
    });

    it('refuses the plain method', async () => {
      const client = await register();
      const back = await visit(
        new Browser(),
        authorizeUrl(client.client_id, 'x'.repeat(43), { code_challenge_method: 'plain' }),
      );
      expect(new URL(back.location!).searchParams.get('error')).toBe('invalid_request');
    });

    it('refuses a wrong verifier, and a code used twice', async () => {
      const client = await register();
      const { code, verifier } = await authorizeAsNewOwner(client.client_id);
      const wrong = await redeem(client.client_id, code, pkce().verifier);
      expect([wrong.status, wrong.body.error]).toEqual([400, 'invalid_grant']);
      // A failed redemption does not consume the code; a successful one does.
      expect((await redeem(client.client_id, code, verifier)).status).toBe(200);
      const reused = await redeem(client.client_id, code, verifier);
      expect([reused.status, reused.body.error]).toEqual([400, 'invalid_grant']);
    });
  });

  describe('resource indicators (RFC 8707)', () => {
    it('refuses any resource but the API at the authorization endpoint', async () => {
      const client = await register();
      const back = await visit(
        new Browser(),
        authorizeUrl(client.client_id, pkce().challenge, { resource: 'https://other.example/api/' }),
      );
      expect(new URL(back.location!).searchParams.get('error')).toBe('invalid_target');
    });

    it('refuses any resource but the API at the token endpoint, for codes and refresh tokens', async () => {
      const client = await register();
      const { code, verifier } = await authorizeAsNewOwner(client.client_id);
      const other = { resource: 'https://other.example/api/' };
      const byCode = await exchange({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: client.client_id,
        ...other,
      });
      expect([byCode.status, byCode.body.error]).toEqual([400, 'invalid_target']);

      const { code: code2, verifier: verifier2 } = await authorizeAsNewOwner(client.client_id);
      const token = await redeem(client.client_id, code2, verifier2);
      const byRefresh = await exchange({
        grant_type: 'refresh_token',
        refresh_token: token.body.refresh_token,
        client_id: client.client_id,
        ...other,
      });
      expect([byRefresh.status, byRefresh.body.error]).toEqual([400, 'invalid_target']);
    });
  });

  describe('refresh tokens', () => {
    it('rotate for a public client; reusing an old one revokes the whole grant', async () => {
      const client = await register();
      const { code, verifier } = await authorizeAsNewOwner(client.client_id);
      const first = (await redeem(client.client_id, code, verifier)).body;

      const second = await refresh(client.client_id, first.refresh_token);
      expect(second.status).toBe(200);
      expect(second.body.refresh_token).not.toBe(first.refresh_token);
      expect(decodeJwt(second.body.access_token).aud).toBe(ctx.config.API_RESOURCE);
      await ctx.http
        .get('/api/backup/list')
        .set('Authorization', `Bearer ${second.body.access_token}`)
        .expect(200);

      const replay = await refresh(client.client_id, first.refresh_token);
      expect([replay.status, replay.body.error]).toEqual([400, 'invalid_grant']);
      const afterReplay = await refresh(client.client_id, second.body.refresh_token);
      expect([afterReplay.status, afterReplay.body.error]).toEqual([400, 'invalid_grant']);
    });

    it('are revoked by RFC 7009 revocation', async () => {
      const client = await register();
      const { code, verifier } = await authorizeAsNewOwner(client.client_id);
      const tokens = (await redeem(client.client_id, code, verifier)).body;
      const response = await ctx.http
        .post('/oauth/revoke')
        .type('form')
        .send({ token: tokens.refresh_token, client_id: client.client_id });
      expect(response.status).toBe(200);
      const after = await refresh(client.client_id, tokens.refresh_token);
      expect([after.status, after.body.error]).toEqual([400, 'invalid_grant']);
    });

    it('stop working, as do access tokens, when the person leaves the team', async () => {
      const client = await register();
      const { code, verifier, owner } = await authorizeAsNewOwner(client.client_id);
      const tokens = (await redeem(client.client_id, code, verifier)).body;
      await db.query('DELETE FROM team_members WHERE user_id = $1', [owner.userId]);
      const api = await ctx.http
        .get('/api/backup/list')
        .set('Authorization', `Bearer ${tokens.access_token}`);
      expect(api.status).toBe(401);
      const after = await refresh(client.client_id, tokens.refresh_token);
      expect([after.status, after.body.error]).toEqual([400, 'invalid_grant']);
    });
  });

  describe('dynamic client registration (RFC 7591)', () => {
    it.each<[string, Record<string, unknown>, string]>([
      ['the client_credentials grant', { grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      [
        'an http redirect URI off loopback',
        { redirect_uris: ['http://app.example/callback'] },
        'invalid_redirect_uri',
      ],
      ['no redirect URI', { redirect_uris: [] }, 'invalid_redirect_uri'],
    ])('refuses %s (RFC 7591 §3.2.2)', async (_case, metadata, error) => {
      const response = await ctx.http
        .post('/oauth/register')
        .send({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...metadata });
      expect([response.status, response.body.error]).toEqual([400, error]);
    });

    it('keeps integration clients to client_credentials', async () => {
      const integration = await ctx.newClient({ role: 'admin' });
      const page = await visit(new Browser(), authorizeUrl(integration.clientId, pkce().challenge));
      expect(page.status).toBe(400);
      expect(page.text).toContain('Authorization failed');
    });
  });

  describe('client ID metadata documents', () => {
    function document(path: string, metadata: Record<string, unknown> = {}): string {
      const clientId = `${docs.url}${path}`;
      docs.serve(path, {
        headers: { 'cache-control': 'max-age=300' },
        body: JSON.stringify({
          client_id: clientId,
          client_name: 'Metadata agent',
          redirect_uris: [REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
          ...metadata,
        }),
      });
      return clientId;
    }

    it('describe a client by its https URL: consent shows its name and redirect host, the token names the URL', async () => {
      const clientId = document('/agents/one.json');
      const { code, verifier, consentPage } = await authorizeAsNewOwner(clientId);
      expect(consentPage.text).toContain('Metadata agent');
      expect(consentPage.text).toContain('<strong>127.0.0.1:7777</strong>');
      expect(consentPage.text).toContain(clientId);
      const token = await redeem(clientId, code, verifier);
      expect(token.status).toBe(200);
      expect(decodeJwt(token.body.access_token).client_id).toBe(clientId);
      await ctx.http
        .get('/api/backup/list')
        .set('Authorization', `Bearer ${token.body.access_token}`)
        .expect(200);
    });

    it('are fetched once while their Cache-Control allows', async () => {
      const clientId = document('/agents/cached.json');
      await authorizeAsNewOwner(clientId);
      await authorizeAsNewOwner(clientId);
      expect(docs.requests('/agents/cached.json')).toBe(1);
    });

    /** Expects the authorization endpoint's error page for a client id it cannot use, saying `reason`. */
    async function expectRefused(clientId: string, reason: string): Promise<void> {
      const page = await visit(new Browser(), authorizeUrl(clientId, pkce().challenge));
      expect(page.status).toBe(400);
      expect(/class="error">([^<]*)</.exec(page.text)?.[1]).toContain(reason);
    }

    it('are refused over http', async () => {
      await expectRefused(`http://127.0.0.1:${new URL(docs.url).port}/agents/plain.json`, 'invalid_client');
    });

    it('are refused when the server redirects', async () => {
      document('/agents/target.json');
      docs.serve('/agents/moved.json', {
        status: 302,
        headers: { location: `${docs.url}/agents/target.json` },
      });
      await expectRefused(`${docs.url}/agents/moved.json`, 'metadata document fetch failed');
      expect(docs.requests('/agents/target.json')).toBe(0);
    });

    it('are refused over 5 KB, and read up to it', async () => {
      const padding = (bytes: number) => ({ client_uri: `https://example.com/${'x'.repeat(bytes)}` });
      await expectRefused(
        document('/agents/large.json', padding(5 * 1024)),
        'metadata document fetch failed',
      );
      expect(docs.requests('/agents/large.json')).toBeGreaterThan(0);
      const fits = document('/agents/fits.json', padding(4 * 1024));
      const page = await visit(new Browser(), authorizeUrl(fits, pkce().challenge));
      expect([page.status, page.text.includes('Metadata agent')]).toEqual([200, true]);
    });

    it('are refused when their client_id is not their URL, or they ask for client_credentials', async () => {
      await expectRefused(
        document('/agents/mismatch.json', { client_id: `${docs.url}/agents/other.json` }),
        'client_id does not match',
      );
      await expectRefused(
        document('/agents/machine.json', { grant_types: ['client_credentials'] }),
        'not client_credentials',
      );
    });
  });

  describe('without the test-only loopback allowance', () => {
    let strict: TestApp;

    beforeAll(async () => {
      // One trusted proxy: each test counts against its own client address (X-Forwarded-For).
      strict = await startTestApp({
        AUTH_CA_FILE: docs.caCertPath,
        RATE_LIMITS: 'on',
        TRUST_PROXY_HOPS: '1',
        OAUTH_CLIENT_RATE_LIMIT: '3',
      });
    });

    afterAll(async () => {
      await strict?.close();
    });

    it('refuses a metadata document on a loopback address without sending it a request', async () => {
      const path = '/agents/private.json';
      docs.serve(path, {
        body: JSON.stringify({ client_id: `${docs.url}${path}`, redirect_uris: [REDIRECT] }),
      });
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: `${docs.url}${path}`,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      });
      const page = await new Browser().get(`${strict.baseUrl}/oauth/authorize?${query}`, {
        'x-forwarded-for': '198.51.100.1',
      });
      expect(page.status).toBe(400);
      expect(page.text).toContain('invalid_client');
      expect(docs.requests(path)).toBe(0);
    });

    it('limits registrations per client IP (OAUTH_CLIENT_RATE_LIMIT per minute) with 429 and Retry-After', async () => {
      const statuses = [];
      let last;
      for (let attempt = 0; attempt < 4; attempt += 1) {
        last = await strict.http
          .post('/oauth/register')
          .set('X-Forwarded-For', '198.51.100.2')
          .send({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([201, 201, 201, 429]);
      expect(last!.body.error).toBe('rate_limited');
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
      const elsewhere = await strict.http
        .post('/oauth/register')
        .set('X-Forwarded-For', '198.51.100.3')
        .send({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
      expect(elsewhere.status).toBe(201);
    });

    it('counts metadata document fetches in the same budget', async () => {
      const forwarded = { 'x-forwarded-for': '198.51.100.4' };
      for (let attempt = 0; attempt < 3; attempt += 1) {
        await strict.http
          .post('/oauth/register')
          .set(forwarded)
          .send({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
      }
      const path = '/agents/budget.json';
      docs.serve(path, {
        body: JSON.stringify({ client_id: `${docs.url}${path}`, redirect_uris: [REDIRECT] }),
      });
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: `${docs.url}${path}`,
        redirect_uri: REDIRECT,
      });
      const page = await new Browser().get(`${strict.baseUrl}/oauth/authorize?${query}`, forwarded);
      expect(page.status).toBe(400);
      expect(page.text).toContain('fetch not allowed');
      expect(docs.requests(path)).toBe(0);
    });
  });
});
