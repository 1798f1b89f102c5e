import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AuthStatePurger } from '@app/identity/auth/auth-state.purger.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { Browser } from './support/browser.js';
import { latestCode, newAddress, parseSetCookie, signInWithCode } from './support/sign-in-helpers.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { startTestIdp, type TestIdp } from './support/test-idp.js';

const SESSION = '__Host-session';
const FLOW = '__Host-sign-in-flow';
/** A protected route a team owner may call (`manage connections`). */
const PROTECTED = '/api/connections';

/**
 * Sign-in without passwords (spec "Authentication" items 1, 6-8; docs/auth.md): one-time e-mail
 * codes, the customer's identity provider (a loopback HTTPS OpenID provider here), and the
 * session cookie they lead to, through real HTTP on real PostgreSQL.
 */
describe('sign-in and sessions', () => {
  let idp: TestIdp;
  let ctx: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    idp = await startTestIdp();
    ctx = await startTestApp(idp.env);
    db = ctx.app.get(DataSource);
  });

  afterAll(async () => {
    await ctx?.close();
    await idp?.close();
  });

  /** A new team whose owner (super_admin) has this address. */
  async function newOwner(
    email = newAddress('owner'),
  ): Promise<{ email: string; teamId: string; userId: string }> {
    const { team, owner } = await ctx.app.get(TeamsService).createTeam({ name: 'Acme', ownerEmail: email });
    return { email, teamId: team.id, userId: owner.id };
  }

  /** A browser signed in as a new team owner, with its session cookie value. */
  async function signedIn(): Promise<{
    browser: Browser;
    cookie: string;
    owner: Awaited<ReturnType<typeof newOwner>>;
  }> {
    const owner = await newOwner();
    const browser = new Browser();
    const response = await signInWithCode(ctx, browser, owner.email);
    expect(response.status).toBe(200);
    return { browser, cookie: browser.cookie(ctx.baseUrl, SESSION)!, owner };
  }

  function expect401(response: { status: number; text: string; headers: Headers }): void {
    expect(response.status).toBe(401);
    expect(JSON.parse(response.text)).toMatchObject({ code: 'unauthorized' });
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
  }

  describe('e-mail codes', () => {
    it('sign a team member in: the session is a __Host- cookie, HttpOnly, Secure, SameSite=Lax, stored only hashed', async () => {
      const owner = await newOwner();
      const browser = new Browser();
      const sent = await browser.postJson(`${ctx.baseUrl}/api/auth/send-code`, { email: owner.email });
      expect([sent.status, JSON.parse(sent.text)]).toEqual([200, { ok: true }]);

      const verified = await browser.postJson(`${ctx.baseUrl}/api/auth/verify-code`, {
        email: owner.email.toUpperCase(),
        code: await latestCode(ctx, owner.email),
      });
      expect(verified.status).toBe(200);
      expect(JSON.parse(verified.text)).toEqual({
        user_id: owner.userId,
        team_id: owner.teamId,
        role: 'super_admin',
      });
      expect(verified.setCookies).toHaveLength(1);
      const cookie = parseSetCookie(verified.setCookies[0]);
      expect(cookie.name).toBe(SESSION);
      expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(cookie.attributes).toEqual({
        'max-age': String(ctx.config.SESSION_ABSOLUTE_TIMEOUT),
        path: '/',
        secure: true,
        httponly: true,
        samesite: 'Lax',
      });

      const stored: Array<{ id_hash: string }> = await db.query(
        'SELECT id_hash FROM sessions WHERE user_id = $1',
        [owner.userId],
      );
      expect(stored).toEqual([{ id_hash: createHash('sha256').update(cookie.value).digest('base64url') }]);
      expect((await browser.get(`${ctx.baseUrl}${PROTECTED}`)).status).toBe(200);
    });

    it('answer the same for an address with and without an account, and keep only an HMAC of the code', async () => {
      const known = (await newOwner()).email;
      const unknown = newAddress('stranger');
      const browser = new Browser();
      const answers = [];
      for (const email of [known, unknown]) {
        const response = await browser.postJson(`${ctx.baseUrl}/api/auth/send-code`, { email });
        answers.push([response.status, response.text]);
      }
      expect(answers[0]).toEqual(answers[1]);
      for (const email of [known, unknown]) {
        const code = await latestCode(ctx, email);
        const [row] = await db.query('SELECT code_hash FROM sign_in_codes WHERE email = lower($1)', [email]);
        expect(row.code_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(row.code_hash).not.toContain(code);
        expect(row.code_hash).not.toBe(createHash('sha256').update(code).digest('base64url'));
      }
    });

    it('work once', async () => {
      const { email } = await newOwner();
      const browser = new Browser();
      await browser.postJson(`${ctx.baseUrl}/api/auth/send-code`, { email });
      const code = await latestCode(ctx, email);
      expect((await browser.postJson(`${ctx.baseUrl}/api/auth/verify-code`, { email, code })).status).toBe(
        200,
      );
      const again = await new Browser().postJson(`${ctx.baseUrl}/api/auth/verify-code`, { email, code });
      expect([again.status, JSON.parse(again.text).code]).toEqual([401, 'invalid_code']);
    });

    it('are void after 5 wrong tries, even for the right code', async () => {
      const { email } = await newOwner();
      const browser = new Browser();
      await browser.postJson(`${ctx.baseUrl}/api/auth/send-code`, { email });
      const code = await latestCode(ctx, email);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const response = await browser.postJson(`${ctx.baseUrl}/api/auth/verify-code`, {
          email,
          code: wrong,
        });
        expect(response.status).toBe(401);
      }
      const right = await browser.postJson(`${ctx.baseUrl}/api/auth/verify-code`, { email, code });
      expect([right.status, JSON.parse(right.text).code]).toEqual([401, 'invalid_code']);
    });

    it('allow 4 wrong tries and then the right one', async () => {
      const { email } = await newOwner();
      const browser = new Browser();
      await browser.postJson(`${ctx.baseUrl}/api/auth/send-code`, { email });
      const code = await latestCode(ctx, email);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      for (let attempt = 0; attempt < 4; attempt += 1) {
        await browser.postJson(`${ctx.baseUrl}/api/auth/verify-code`, { email, code: wrong });
      }
      expect((await browser.postJson(`${ctx.baseUrl}/api/auth/verify-code`, { email, code })).status).toBe(
        200,
      );
    });

    it('expire after 10 minutes', async () => {
      const { email } = await newOwner();
      const browser = new Browser();
      await browser.postJson(`${ctx.baseUrl}/api/auth/send-code`, { email });
      const [row] = await db.query(
        'SELECT round(extract(epoch FROM expires_at - now())) AS ttl FROM sign_in_codes WHERE email = lower($1)',
        [email],
      );
      expect(Number(row.ttl)).toBeGreaterThan(590);
      expect(Number(row.ttl)).toBeLessThanOrEqual(600);
      await db.query(
        "UPDATE sign_in_codes SET expires_at = now() - interval '1 second' WHERE email = lower($1)",
        [email],
      );
      const response = await browser.postJson(`${ctx.baseUrl}/api/auth/verify-code`, {
        email,
        code: await latestCode(ctx, email),
      });
      expect(response.status).toBe(401);
    });

    it('are replaced by a newer code', async () => {
      const { email } = await newOwner();
      const browser = new Browser();
      await browser.postJson(`${ctx.baseUrl}/api/auth/send-code`, { email });
      const first = await latestCode(ctx, email);
      let second = first;
      // Two draws are equal once in a million; ask again until they differ.
      while (second === first) {
        await browser.postJson(`${ctx.baseUrl}/api/auth/send-code`, { email });
        second = await latestCode(ctx, email);
      }
      expect(
        (await browser.postJson(`${ctx.baseUrl}/api/auth/verify-code`, { email, code: first })).status,
      ).toBe(401);
      expect(
        (await browser.postJson(`${ctx.baseUrl}/api/auth/verify-code`, { email, code: second })).status,
      ).toBe(200);
    });

    it('are sent at most 5 times an hour to one address: the 6th is 429 with Retry-After, and no e-mail', async () => {
      const email = newAddress('flood');
      const browser = new Browser();
      for (let sent = 0; sent < 5; sent += 1) {
        expect((await browser.postJson(`${ctx.baseUrl}/api/auth/send-code`, { email })).status).toBe(200);
      }
      const sixth = await browser.postJson(`${ctx.baseUrl}/api/auth/send-code`, { email });
      expect([sixth.status, JSON.parse(sixth.text).code]).toEqual([429, 'rate_limited']);
      const retryAfter = Number(sixth.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      const [{ n }] = await db.query(
        'SELECT count(*)::int AS n FROM outbox_emails WHERE lower(recipient) = lower($1)',
        [email],
      );
      expect(n).toBe(5);
      const other = await browser.postJson(`${ctx.baseUrl}/api/auth/send-code`, { email: newAddress() });
      expect(other.status).toBe(200);
    });

    it('refuse an address that belongs to no team with 403 no_team, and start no session', async () => {
      const email = newAddress('stranger');
      const browser = new Browser();
      const response = await signInWithCode(ctx, browser, email);
      expect([response.status, JSON.parse(response.text).code]).toEqual([403, 'no_team']);
      expect(response.setCookies).toEqual([]);
      expect(await db.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [email])).toEqual([]);
    });

    it('join an invited address to its team at first sign-in, with the invited role', async () => {
      const owner = await signedIn();
      const email = newAddress('invitee');
      const invited = await owner.browser.postJson(`${ctx.baseUrl}/api/team/invitations`, {
        email,
        role: 'operator',
      });
      expect(invited.status).toBe(201);
      const response = await signInWithCode(ctx, new Browser(), email);
      expect(response.status).toBe(200);
      expect(JSON.parse(response.text)).toMatchObject({ team_id: owner.owner.teamId, role: 'operator' });
    });

    it.each([
      ['send-code', { email: 'not-an-address' }],
      ['send-code', { email: newAddress(), extra: 1 }],
      ['verify-code', { email: newAddress(), code: '12345' }],
      ['verify-code', { email: newAddress(), code: '12345a' }],
      ['verify-code', { email: 'nobody', code: '123456' }],
    ])('answer 400 to a malformed %s body %j', async (endpoint, body) => {
      const response = await new Browser().postJson(`${ctx.baseUrl}/api/auth/${endpoint}`, body);
      expect([response.status, JSON.parse(response.text).code]).toEqual([400, 'validation_failed']);
    });
  });

  describe('sessions', () => {
    it('get a new id at each sign-in: the previous one stops working', async () => {
      const { browser, cookie, owner } = await signedIn();
      await signInWithCode(ctx, browser, owner.email);
      const renewed = browser.cookie(ctx.baseUrl, SESSION)!;
      expect(renewed).not.toBe(cookie);
      const replay = new Browser();
      replay.setCookie(ctx.baseUrl, SESSION, cookie);
      expect401(await replay.get(`${ctx.baseUrl}${PROTECTED}`));
      expect((await browser.get(`${ctx.baseUrl}${PROTECTED}`)).status).toBe(200);
    });

    it('end at sign-out: the row is deleted and the cookie cleared', async () => {
      const { browser, cookie } = await signedIn();
      const response = await browser.postJson(`${ctx.baseUrl}/api/auth/sign-out`, {});
      expect([response.status, JSON.parse(response.text)]).toEqual([200, { ok: true }]);
      expect(parseSetCookie(response.setCookies[0])).toMatchObject({
        name: SESSION,
        value: '',
        attributes: { 'max-age': '0' },
      });
      const hash = createHash('sha256').update(cookie).digest('base64url');
      expect(await db.query('SELECT 1 FROM sessions WHERE id_hash = $1', [hash])).toEqual([]);
      const replay = new Browser();
      replay.setCookie(ctx.baseUrl, SESSION, cookie);
      expect401(await replay.get(`${ctx.baseUrl}${PROTECTED}`));
    });

    it('end after SESSION_IDLE_TIMEOUT without a request', async () => {
      const { browser, cookie } = await signedIn();
      const hash = createHash('sha256').update(cookie).digest('base64url');
      await db.query(
        'UPDATE sessions SET last_seen_at = now() - make_interval(secs => $2 + 1) WHERE id_hash = $1',
        [hash, ctx.config.SESSION_IDLE_TIMEOUT],
      );
      expect401(await browser.get(`${ctx.baseUrl}${PROTECTED}`));
    });

    it('stay alive while used, and are refreshed at most once a minute', async () => {
      const { browser, cookie } = await signedIn();
      const hash = createHash('sha256').update(cookie).digest('base64url');
      await db.query("UPDATE sessions SET last_seen_at = now() - interval '10 minutes' WHERE id_hash = $1", [
        hash,
      ]);
      expect((await browser.get(`${ctx.baseUrl}${PROTECTED}`)).status).toBe(200);
      const [row] = await db.query(
        "SELECT now() - last_seen_at < interval '5 seconds' AS fresh FROM sessions WHERE id_hash = $1",
        [hash],
      );
      expect(row.fresh).toBe(true);
    });

    it('end at SESSION_ABSOLUTE_TIMEOUT however active', async () => {
      const { browser, cookie } = await signedIn();
      const hash = createHash('sha256').update(cookie).digest('base64url');
      const [row] = await db.query(
        'SELECT round(extract(epoch FROM expires_at - created_at)) AS lifetime FROM sessions WHERE id_hash = $1',
        [hash],
      );
      expect(Number(row.lifetime)).toBe(ctx.config.SESSION_ABSOLUTE_TIMEOUT);
      await db.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id_hash = $1", [
        hash,
      ]);
      expect401(await browser.get(`${ctx.baseUrl}${PROTECTED}`));
    });

    it('refuse a forged cookie with 401', async () => {
      const forged = new Browser();
      forged.setCookie(ctx.baseUrl, SESSION, 'A'.repeat(43));
      expect401(await forged.get(`${ctx.baseUrl}${PROTECTED}`));
    });

    it('refuse a member removed from the team with 401', async () => {
      const { browser, owner } = await signedIn();
      await db.query('DELETE FROM team_members WHERE user_id = $1', [owner.userId]);
      expect401(await browser.get(`${ctx.baseUrl}${PROTECTED}`));
    });

    it('are ignored when an Authorization header is present: the request is judged by its token alone', async () => {
      const { browser } = await signedIn();
      const garbage = await browser.get(`${ctx.baseUrl}${PROTECTED}`, { authorization: 'Bearer garbage' });
      expect401(garbage);
      expect(garbage.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect401(await browser.get(`${ctx.baseUrl}${PROTECTED}`, { authorization: 'Basic Zm9vOmJhcg==' }));
    });

    it('need Origin = BASE_URL on a cookie-authenticated POST (CSRF), not on a GET', async () => {
      const { browser } = await signedIn();
      const url = `${ctx.baseUrl}${PROTECTED}/create`;
      const missing = await browser.postJson(url, {}, { origin: null });
      const foreign = await browser.postJson(url, {}, { origin: 'https://evil.example' });
      expect([missing.status, JSON.parse(missing.text).code]).toEqual([403, 'forbidden']);
      expect([foreign.status, JSON.parse(foreign.text).code]).toEqual([403, 'forbidden']);
      // Same origin gets past the check to validation (the body is empty on purpose).
      expect((await browser.postJson(url, {})).status).toBe(400);
      expect(
        (await browser.get(`${ctx.baseUrl}${PROTECTED}`, { origin: 'https://evil.example' })).status,
      ).toBe(200);
    });

    it('cannot be ended or started from another origin', async () => {
      const { browser } = await signedIn();
      const signOut = await browser.postJson(
        `${ctx.baseUrl}/api/auth/sign-out`,
        {},
        { origin: 'https://evil.example' },
      );
      expect(signOut.status).toBe(403);
      expect((await browser.get(`${ctx.baseUrl}${PROTECTED}`)).status).toBe(200);
      const verify = await new Browser().postJson(
        `${ctx.baseUrl}/api/auth/verify-code`,
        { email: newAddress(), code: '123456' },
        { origin: 'https://evil.example' },
      );
      expect(verify.status).toBe(403);
    });

    it('past a timeout are purged by the scheduled purge', async () => {
      const { cookie } = await signedIn();
      const hash = createHash('sha256').update(cookie).digest('base64url');
      await db.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id_hash = $1", [
        hash,
      ]);
      await ctx.app.get(AuthStatePurger).purge();
      expect(await db.query('SELECT 1 FROM sessions WHERE id_hash = $1', [hash])).toEqual([]);
    });
  });

  describe('through the identity provider', () => {
    /** Starts a sign-in and follows the redirects through the provider to the service's callback. */
    async function throughProvider(browser: Browser, returnTo = '/api/health') {
      const start = await browser.get(
        `${ctx.baseUrl}/sign-in/oidc?return_to=${encodeURIComponent(returnTo)}`,
      );
      const toCallback = await browser.follow(start.location!, (next) => !next.startsWith(ctx.baseUrl));
      return { start, callbackUrl: toCallback.location! };
    }

    it('signs a member in with state, nonce and PKCE kept in a 10-minute signed cookie', async () => {
      const owner = await newOwner();
      idp.signInAs({ email: owner.email });
      const browser = new Browser({ caCertPath: idp.caCertPath });
      const { start, callbackUrl } = await throughProvider(browser);

      expect(start.status).toBe(303);
      const authorize = new URL(start.location!);
      expect(authorize.origin).toBe(idp.url);
      expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
        client_id: idp.clientId,
        redirect_uri: `${ctx.baseUrl}/sign-in/oidc/callback`,
        response_type: 'code',
        scope: 'openid email',
        code_challenge_method: 'S256',
        state: expect.any(String),
        nonce: expect.any(String),
        code_challenge: expect.any(String),
      });
      const flow = parseSetCookie(start.setCookies[0]);
      expect(flow).toMatchObject({
        name: FLOW,
        attributes: { 'max-age': '600', path: '/', secure: true, httponly: true, samesite: 'Lax' },
      });
      expect(flow.value).not.toContain(authorize.searchParams.get('code_challenge'));

      expect(callbackUrl.startsWith(`${ctx.baseUrl}/sign-in/oidc/callback?`)).toBe(true);
      const callback = await browser.get(callbackUrl);
      expect([callback.status, callback.location]).toEqual([303, `${ctx.baseUrl}/api/health`]);
      const cookies = callback.setCookies.map(parseSetCookie);
      expect(cookies.map((cookie) => [cookie.name, cookie.attributes['max-age']])).toEqual([
        [SESSION, String(ctx.config.SESSION_ABSOLUTE_TIMEOUT)],
        [FLOW, '0'],
      ]);
      expect((await browser.get(`${ctx.baseUrl}${PROTECTED}`)).status).toBe(200);
      const [session] = await db.query('SELECT method, team_id FROM sessions WHERE user_id = $1', [
        owner.userId,
      ]);
      expect(session).toEqual({ method: 'oidc', team_id: owner.teamId });
    });

    it('refuses a callback in a browser that did not start the sign-in', async () => {
      idp.signInAs({ email: (await newOwner()).email });
      const browser = new Browser({ caCertPath: idp.caCertPath });
      const { callbackUrl } = await throughProvider(browser);
      browser.forget(ctx.baseUrl, FLOW);
      const callback = await browser.get(callbackUrl);
      expect(callback.status).toBe(400);
      expect(callback.headers.get('content-type')).toContain('text/html');
      expect(callback.text).toContain('more than 10 minutes ago or in another browser');
      expect(callback.setCookies.map(parseSetCookie).map((cookie) => cookie.name)).not.toContain(SESSION);
    });

    it('refuses an altered flow cookie', async () => {
      idp.signInAs({ email: (await newOwner()).email });
      const browser = new Browser({ caCertPath: idp.caCertPath });
      const { callbackUrl } = await throughProvider(browser);
      const [payload, signature] = browser.cookie(ctx.baseUrl, FLOW)!.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const altered = Buffer.from(JSON.stringify({ ...claims, returnTo: '/elsewhere' })).toString(
        'base64url',
      );
      browser.setCookie(ctx.baseUrl, FLOW, `${altered}.${signature}`);
      expect((await browser.get(callbackUrl)).status).toBe(400);
    });

    it('refuses an answer meant for another sign-in (state)', async () => {
      idp.signInAs({ email: (await newOwner()).email });
      const browser = new Browser({ caCertPath: idp.caCertPath });
      const first = await throughProvider(browser);
      await throughProvider(browser);
      const callback = await browser.get(first.callbackUrl);
      expect(callback.status).toBe(400);
      expect(callback.text).toContain('did not complete');
    });

    it('refuses an e-mail address the provider marks unverified', async () => {
      idp.signInAs({ email: (await newOwner()).email, emailVerified: false });
      const browser = new Browser({ caCertPath: idp.caCertPath });
      const { callbackUrl } = await throughProvider(browser);
      const callback = await browser.get(callbackUrl);
      expect(callback.status).toBe(400);
      expect(callback.text).toContain('verified e-mail address');
    });

    it('refuses an address of no team with a 403 page', async () => {
      idp.signInAs({ email: newAddress('stranger') });
      const browser = new Browser({ caCertPath: idp.caCertPath });
      const { callbackUrl } = await throughProvider(browser);
      const callback = await browser.get(callbackUrl);
      expect(callback.status).toBe(403);
      expect(callback.text).toContain('not a member of any team');
    });

    it("is offered on an authorization request's sign-in page, and comes back to it", async () => {
      const redirect = 'http://127.0.0.1:7777/callback';
      const client = await ctx.http
        .post('/oauth/register')
        .send({ client_name: 'Agent', redirect_uris: [redirect], token_endpoint_auth_method: 'none' });
      const owner = await newOwner();
      idp.signInAs({ email: owner.email });
      const browser = new Browser({ caCertPath: idp.caCertPath });
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: client.body.client_id,
        redirect_uri: redirect,
        code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
        code_challenge_method: 'S256',
      });
      const page = await browser.follow(`${ctx.baseUrl}/oauth/authorize?${query}`, (next) =>
        next.startsWith(ctx.baseUrl),
      );
      const link = /href="([^"]*sign-in\/oidc[^"]*)"/.exec(page.text)?.[1].replaceAll('&amp;', '&');
      expect(page.text).toContain('Sign in with Test IdP');
      expect(link).toBe(`/sign-in/oidc?return_to=${encodeURIComponent(new URL(page.url).pathname)}`);

      const start = await browser.get(`${ctx.baseUrl}${link}`);
      const toCallback = await browser.follow(start.location!, (next) => !next.startsWith(ctx.baseUrl));
      const callback = await browser.get(toCallback.location!);
      expect(callback.location).toBe(page.url);
      const consent = await browser.follow(callback.location!, (next) => next.startsWith(ctx.baseUrl));
      expect([consent.status, consent.text.includes('Allow access?')]).toEqual([200, true]);
    });

    it('answers the sign-in options, public and cacheable, naming the identity provider', async () => {
      const response = await ctx.http.get('/api/sign-in/options');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ email_code: true, oidc: { name: 'Test IdP' } });
      expect(response.headers['cache-control']).toBe('public, max-age=300');
    });

    it('lands on the console when return_to is a URL on an allowed console origin', async () => {
      const [consoleOrigin] = ctx.config.CONSOLE_ORIGINS;
      expect(consoleOrigin).toEqual(expect.any(String));
      idp.signInAs({ email: (await newOwner()).email });
      const browser = new Browser({ caCertPath: idp.caCertPath });
      const { callbackUrl } = await throughProvider(browser, `${consoleOrigin}/backups?status=failed`);
      const callback = await browser.get(callbackUrl);
      expect([callback.status, callback.location]).toEqual([303, `${consoleOrigin}/backups?status=failed`]);
    });

    it.each([
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      // Near misses of the allowed console origin http://localhost:5173 (the test default).
      'http://localhost:5174/',
      'https://localhost:5173/',
      'http://localhost:5173.evil.example/',
      'http://user@localhost:5173/',
    ])(
      'lands on / when return_to is %s, neither a local path nor an allowed console URL',
      async (returnTo) => {
        idp.signInAs({ email: (await newOwner()).email });
        const browser = new Browser({ caCertPath: idp.caCertPath });
        const { callbackUrl } = await throughProvider(browser, returnTo);
        expect((await browser.get(callbackUrl)).location).toBe(`${ctx.baseUrl}/`);
      },
    );
  });

  describe('over SMTP', () => {
    let smtp: SmtpSink;
    let mailing: TestApp;

    beforeAll(async () => {
      smtp = await startSmtpSink();
      mailing = await startTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Backups <backups@acme.example>' });
    });

    afterAll(async () => {
      await mailing?.close();
      await smtp?.close();
    });

    it('answers no identity provider among the sign-in options where none is configured', async () => {
      const response = await mailing.http.get('/api/sign-in/options');
      expect([response.status, response.body]).toEqual([200, { email_code: true, oidc: null }]);
    });

    it('sends the code by e-mail and keeps nothing in the outbox', async () => {
      const email = newAddress('owner');
      await mailing.app.get(TeamsService).createTeam({ name: 'Mail', ownerEmail: email });
      const browser = new Browser();
      expect((await browser.postJson(`${mailing.baseUrl}/api/auth/send-code`, { email })).status).toBe(200);

      expect(smtp.messages).toHaveLength(1);
      const [message] = smtp.messages;
      expect(message.from).toBe('backups@acme.example');
      // nodemailer lower-cases the domain, which is case-insensitive anyway (RFC 5321 §2.4).
      expect(message.to.map((to) => to.toLowerCase())).toEqual([email.toLowerCase()]);
      expect(message.data).toMatch(/^Subject: Your idp-backup sign-in code$/m);
      const code = /\b(\d{6})\b/.exec(message.data.split('\r\n\r\n').slice(1).join('\n'))![1];
      expect(await mailing.app.get(DataSource).query('SELECT 1 FROM outbox_emails')).toEqual([]);

      const verified = await browser.postJson(`${mailing.baseUrl}/api/auth/verify-code`, { email, code });
      expect(verified.status).toBe(200);
    });
  });
});
