import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { Browser } from './support/browser.js';
import { newAddress, signInWithCode } from './support/sign-in-helpers.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

/**
 * POST /api/team/clients (docs/security.md "Team management"): what `cli client:create` does,
 * for the caller's team and acting for the caller; the secret is answered once and only its
 * hash is kept; a token from it acts with the role given; the creation is audited; the rules of
 * who may give which role hold. Then list (no secret) and revoke.
 */
describe('POST /api/team/clients (HTTP, real PostgreSQL)', () => {
  let ctx: TestApp;
  let ownerId: string;
  let teamId: string;
  let browser: Browser;
  let admin: TestClient;

  const bearer = (client: { token: string }) => ({ Authorization: `Bearer ${client.token}` });
  const createInSession = async (body: unknown) => {
    const response = await browser.postJson(`${ctx.baseUrl}/api/team/clients`, body);
    const answer = {
      status: response.status,
      headers: { 'content-type': response.headers.get('content-type') ?? '' },
      body: JSON.parse(response.text),
    };
    expect(ctx.contract.problems('post', '/api/team/clients', answer)).toEqual([]);
    return { ...answer, cacheControl: response.headers.get('cache-control'), text: response.text };
  };

  beforeAll(async () => {
    ctx = await startTestApp();
    const email = newAddress('owner');
    const created = await ctx.app.get(TeamsService).createTeam({ name: 'Clients team', ownerEmail: email });
    ownerId = created.owner.id;
    teamId = created.team.id;
    admin = await ctx.newClient({ teamId, role: 'super_admin' });
    browser = new Browser();
    expect((await signInWithCode(ctx, browser, email)).status).toBe(200);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('creates a client for the caller, answers its secret once, and a token from it acts with the role given', async () => {
    const created = await createInSession({ role: 'operator', name: 'Nightly job' });
    expect(created.status).toBe(201);
    expect(created.cacheControl).toBe('no-store');
    expect(created.body).toEqual({
      client: {
        client_id: expect.stringMatching(/^ic_[A-Za-z0-9_-]{22}$/),
        client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        name: 'Nightly job',
        role: 'operator',
        created_by: ownerId,
        created_at: expect.any(String),
        revoked_at: null,
      },
    });
    const { client_id: clientId, client_secret: secret } = created.body.client;

    const token = await ctx.token(clientId, secret);
    const me = await ctx.http
      .get('/api/me')
      .set({ Authorization: `Bearer ${token}` })
      .expect(200);
    expect(me.body.client).toEqual({
      client_id: clientId,
      name: 'Nightly job',
      role: 'operator',
      acts_for_user_id: ownerId,
    });
    expect(me.body.current_team).toMatchObject({ id: teamId, role: 'operator' });
    await ctx.http
      .get('/api/backup/list')
      .set({ Authorization: `Bearer ${token}` })
      .expect(200);
    await ctx.http
      .get('/api/connections')
      .set({ Authorization: `Bearer ${token}` })
      .expect(403);

    // Never again: not in the list, not in the database.
    const list = await ctx.http.get('/api/team/clients').set(bearer(admin)).expect(200);
    expect(list.text).not.toContain(secret);
    expect(list.body.clients).toContainEqual({
      client_id: clientId,
      name: 'Nightly job',
      role: 'operator',
      created_by: ownerId,
      created_at: created.body.client.created_at,
      revoked_at: null,
    });
    const [row] = await ctx.app
      .get(DataSource)
      .query('SELECT row_to_json(c)::text AS json, secret_hash FROM oauth_clients c WHERE client_id = $1', [
        clientId,
      ]);
    expect(row.secret_hash).toMatch(/^sha256:/);
    expect(row.json).not.toContain(secret);

    const audit = await ctx.http
      .get('/api/audit-events?action=team.client_created')
      .set(bearer(admin))
      .expect(200);
    expect(audit.text).not.toContain(secret);
    expect(audit.body.events).toEqual([
      expect.objectContaining({
        action: 'team.client_created',
        actor: expect.objectContaining({ type: 'user', id: ownerId }),
        target: { type: 'client', id: clientId },
        outcome: 'success',
        details: { name: 'Nightly job', role: 'operator' },
      }),
    ]);

    // Revoked, its token stops working at once.
    await ctx.http.delete(`/api/team/clients/${clientId}`).set(bearer(admin)).expect(200);
    await ctx.http
      .get('/api/backup/list')
      .set({ Authorization: `Bearer ${token}` })
      .expect(401);
  });

  it('names a client "<role> integration" by default, and refuses a bad role or name (400)', async () => {
    const created = await createInSession({ role: 'viewer' });
    expect([created.status, created.body.client.name]).toEqual([201, 'viewer integration']);
    for (const body of [
      { role: 'root' },
      {},
      { role: 'viewer', name: '' },
      { role: 'viewer', name: 'x'.repeat(201) },
    ]) {
      const refused = await createInSession(body);
      expect({ body, status: refused.status, code: refused.body.code }).toEqual({
        body,
        status: 400,
        code: 'validation_failed',
      });
    }
  });

  it('refuses a viewer (403), an admin giving admin (403), and an integration client (403)', async () => {
    const viewer = await ctx.newClient({ teamId, role: 'viewer' });
    const asViewer = await ctx.http.post('/api/team/clients').set(bearer(viewer)).send({ role: 'viewer' });
    expect([asViewer.status, asViewer.body.code]).toEqual([403, 'forbidden']);

    const email = newAddress('admin');
    await ctx.http
      .post('/api/team/invitations')
      .set(bearer(admin))
      .send({ email, role: 'admin' })
      .expect(201);
    const adminBrowser = new Browser();
    expect((await signInWithCode(ctx, adminBrowser, email)).status).toBe(200);
    const post = (body: unknown) => adminBrowser.postJson(`${ctx.baseUrl}/api/team/clients`, body);
    expect((await post({ role: 'admin' })).status).toBe(403);
    expect((await post({ role: 'super_admin' })).status).toBe(403);
    expect((await post({ role: 'auditor' })).status).toBe(201);

    const asClient = await ctx.http.post('/api/team/clients').set(bearer(admin)).send({ role: 'viewer' });
    expect([asClient.status, asClient.body.error]).toEqual([
      403,
      expect.stringMatching(/integration client/),
    ]);
  });

  it('refuses a cookie POST from a foreign origin (CSRF)', async () => {
    const response = await browser.postJson(
      `${ctx.baseUrl}/api/team/clients`,
      { role: 'viewer' },
      { origin: 'https://evil.example' },
    );
    expect(response.status).toBe(403);
  });
});
