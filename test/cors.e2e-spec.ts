import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { Browser } from './support/browser.js';
import { newAddress, signInWithCode } from './support/sign-in-helpers.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

const CONSOLE = 'http://localhost:5173';
const OTHER_CONSOLE = 'https://console.example.com';
/** Origins that must get nothing: another site, and near misses of an allowed origin. */
const FOREIGN = [
  'https://evil.example',
  'http://localhost:5174',
  'http://localhost:5173.evil.example',
  'null',
];

/** Every `Access-Control-*` header of an answer. */
function corsHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-')));
}

function commaList(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim().toLowerCase());
}

/**
 * CORS for the separately served console and the CSRF rule of cookie-authenticated requests
 * (DESIGN section 9, docs/security.md "The console"), over HTTP against the real app with its
 * rate limits on: only CONSOLE_ORIGINS get CORS, with credentials; a cookie's unsafe request
 * passes only from BASE_URL or a console origin; a bearer token does not care about `Origin`;
 * a state-changing GET refuses a cookie request another site started.
 */
describe('CORS and CSRF for the console (HTTP, real PostgreSQL)', () => {
  let ctx: TestApp;
  let raw: ReturnType<typeof request>;
  let owner: TestClient;
  let sessionCookie: string;
  let teamId: string;

  beforeAll(async () => {
    ctx = await startTestApp({ CONSOLE_ORIGINS: `${CONSOLE},${OTHER_CONSOLE}`, RATE_LIMITS: 'on' });
    raw = request(ctx.baseUrl);
    const email = newAddress('console');
    const created = await ctx.app.get(TeamsService).createTeam({ name: 'Console team', ownerEmail: email });
    teamId = created.team.id;
    owner = await ctx.newClient({ teamId });
    const browser = new Browser();
    expect((await signInWithCode(ctx, browser, email)).status).toBe(200);
    sessionCookie = `__Host-session=${browser.cookie(ctx.baseUrl, '__Host-session')}`;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("answers an allowed origin's preflight itself, before authentication, with credentials and a cached answer", async () => {
    const response = await raw
      .options('/api/me/team')
      .set('Origin', CONSOLE)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type');
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(CONSOLE);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers['access-control-max-age']).toBe('7200');
    expect(commaList(response.headers['access-control-allow-methods'])).toEqual(
      expect.arrayContaining(['get', 'post', 'patch', 'delete']),
    );
    expect(commaList(response.headers['access-control-allow-headers'])).toEqual(
      expect.arrayContaining(['content-type']),
    );
    expect(commaList(response.headers.vary)).toContain('origin');

    const second = await raw
      .options('/api/account/delete')
      .set('Origin', OTHER_CONSOLE)
      .set('Access-Control-Request-Method', 'DELETE');
    expect([second.status, second.headers['access-control-allow-origin']]).toEqual([204, OTHER_CONSOLE]);
  });

  it('neither refuses nor counts preflights under the rate limits', async () => {
    // The sign-in code endpoints allow 20 requests a minute per IP (spec "Limits").
    for (let sent = 0; sent < 25; sent += 1) {
      const preflight = await raw
        .options('/api/auth/send-code')
        .set('Origin', CONSOLE)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type');
      expect(preflight.status).toBe(204);
    }
    const real = await raw
      .post('/api/auth/send-code')
      .set('Origin', CONSOLE)
      .send({ email: newAddress('limit') });
    expect(real.status).toBe(200);
    expect(real.headers['access-control-allow-origin']).toBe(CONSOLE);
  });

  it("gives an allowed origin's credentialed request its answer, the headers the console reads exposed", async () => {
    const response = await raw.get('/api/me').set('Origin', CONSOLE).set('Cookie', sessionCookie);
    expect(response.status).toBe(200);
    expect(response.body.current_team.id).toBe(teamId);
    expect(response.headers['access-control-allow-origin']).toBe(CONSOLE);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    const exposed = commaList(response.headers['access-control-expose-headers']);
    expect(exposed).toEqual(
      expect.arrayContaining([
        'retry-after',
        'x-account-deletion',
        'x-request-id',
        'ratelimit-limit',
        'ratelimit-remaining',
        'ratelimit-reset',
        'ratelimit-policy',
        'content-disposition',
      ]),
    );
    // What it exposes is what the API sets on this very answer.
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    expect(response.headers['ratelimit-remaining']).toEqual(expect.any(String));
  });

  it('gives any other origin no CORS header at all, preflight or request', async () => {
    for (const origin of FOREIGN) {
      const preflight = await raw
        .options('/api/me')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'GET');
      expect({ origin, cors: corsHeaders(preflight.headers) }).toEqual({ origin, cors: {} });
      const simple = await raw.get('/api/health').set('Origin', origin);
      expect(simple.status).toBe(200);
      expect({ origin, cors: corsHeaders(simple.headers) }).toEqual({ origin, cors: {} });
      const withCookie = await raw.get('/api/me').set('Origin', origin).set('Cookie', sessionCookie);
      expect({ origin, cors: corsHeaders(withCookie.headers) }).toEqual({ origin, cors: {} });
    }
  });

  it('refuses a cookie POST from a foreign origin (403) and takes it from a console origin', async () => {
    for (const origin of FOREIGN) {
      const refused = await ctx.http
        .post('/api/notifications/read')
        .set('Origin', origin)
        .set('Cookie', sessionCookie)
        .send({ all: true });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: expect.stringMatching(/Origin/), code: 'forbidden' });
    }
    const noOrigin = await ctx.http
      .post('/api/notifications/read')
      .set('Cookie', sessionCookie)
      .send({ all: true });
    expect(noOrigin.status).toBe(403);

    for (const origin of [CONSOLE, OTHER_CONSOLE, ctx.baseUrl]) {
      const accepted = await ctx.http
        .post('/api/me/team')
        .set('Origin', origin)
        .set('Cookie', sessionCookie)
        .send({ teamId });
      expect({ origin, status: accepted.status }).toEqual({ origin, status: 200 });
    }
  });

  it("takes the service's sign-in from a console origin, and refuses it from a foreign one", async () => {
    const email = newAddress('signin');
    const fromConsole = await ctx.http.post('/api/auth/send-code').set('Origin', CONSOLE).send({ email });
    expect(fromConsole.status).toBe(200);
    const fromElsewhere = await ctx.http
      .post('/api/auth/send-code')
      .set('Origin', 'https://evil.example')
      .send({ email });
    expect(fromElsewhere.status).toBe(403);
    expect(fromElsewhere.body.code).toBe('forbidden');
  });

  it('lets a bearer token through whatever its Origin, without CORS for a foreign one', async () => {
    const response = await ctx.http
      .post('/api/notifications/read')
      .set('Authorization', `Bearer ${owner.token}`)
      .set('Origin', 'https://evil.example')
      .send({ all: true });
    expect(response.status).toBe(200);
    expect(corsHeaders(response.headers)).toEqual({});
  });

  it('refuses a cookie export another site started (Sec-Fetch-Site: cross-site) without spending the weekly export', async () => {
    const crossSite = await ctx.http
      .get('/api/account/export')
      .set('Cookie', sessionCookie)
      .set('Sec-Fetch-Site', 'cross-site')
      .set('Sec-Fetch-Mode', 'navigate');
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toMatchObject({ error: expect.stringMatching(/another site/), code: 'forbidden' });

    // The console on a sibling host of the same site: the one export of the week is still there.
    const sameSite = await ctx.http
      .get('/api/account/export')
      .set('Cookie', sessionCookie)
      .set('Origin', CONSOLE)
      .set('Sec-Fetch-Site', 'same-site');
    expect(sameSite.status).toBe(200);
    expect(sameSite.headers['access-control-allow-origin']).toBe(CONSOLE);
    expect(JSON.parse(sameSite.text as string)).toMatchObject({ team_id: teamId });
    const again = await ctx.http.get('/api/account/export').set('Cookie', sessionCookie);
    expect(again.status).toBe(429);
  });

  it('lets a bearer export through with Sec-Fetch-Site: cross-site (no ambient credential)', async () => {
    const other = await ctx.newClient();
    const response = await ctx.http
      .get('/api/account/export')
      .set('Authorization', `Bearer ${other.token}`)
      .set('Sec-Fetch-Site', 'cross-site');
    expect(response.status).toBe(200);
  });
});
