import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OKTA_BACKUP_SCOPES } from '@libs/providers/okta/okta-scopes.js';
import { installApiServiceIntegration } from '@tools/demo/okta-api-service.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { createConnection, waitForBackup } from './support/backup-helpers.js';

describe('connections (HTTP, real PostgreSQL, simulated Okta org over HTTPS)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    org = await startTestOrg({ users: 5, groups: 2, apps: 1, seed: 2 });
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  const create = (body: Record<string, unknown>) =>
    ctx.http.post('/api/connections/create').set('Authorization', `Bearer ${admin.token}`).send(body);

  it('refuses a non-https org_url with a clear 400', async () => {
    const response = await create({
      org_url: org.sim.baseUrl.replace('https:', 'http:'),
      client_id: 'x',
      client_secret: 'y',
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'validation_failed', error: 'org_url must use https://' });
  });

  it('refuses credentials the org rejects with a clear 400, saving nothing', async () => {
    const response = await create({
      org_url: org.sim.baseUrl,
      client_id: org.integration.clientId,
      client_secret: 'wrong',
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/^Connection check failed: .*invalid_client/);
    expect(JSON.stringify(response.body)).not.toContain('wrong');
    const list = await ctx.http.get('/api/connections').set('Authorization', `Bearer ${admin.token}`);
    expect(list.body).toEqual({ connections: [] });
  });

  it('refuses a host outside the allowed provider hosts before calling it (SSRF)', async () => {
    const response = await create({
      org_url: 'https://internal.example.net',
      client_id: 'x',
      client_secret: 'y',
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/not an allowed provider host/);
  });

  it('refuses unknown body fields and missing ones', async () => {
    const extra = await create({
      org_url: org.sim.baseUrl,
      client_id: 'x',
      client_secret: 'y',
      team_id: 'other',
    });
    expect(extra.status).toBe(400);
    expect(extra.body.details).toEqual([{ field: 'team_id', message: 'property team_id should not exist' }]);
    const missing = await create({ org_url: org.sim.baseUrl });
    expect(missing.status).toBe(400);
    expect([...new Set(missing.body.details.map((d: { field: string }) => d.field))].sort()).toEqual([
      'client_id',
      'client_secret',
    ]);
  });

  it('saves a connection whose credentials work, and lists it for its team only', async () => {
    const response = await create({
      org_url: org.sim.baseUrl,
      client_id: org.integration.clientId,
      client_secret: org.integration.clientSecret,
    });
    expect(response.status).toBe(201);
    expect(response.body.connection).not.toHaveProperty('client_secret');
    const list = await ctx.http.get('/api/connections').set('Authorization', `Bearer ${admin.token}`);
    expect(list.body.connections.map((c: { id: string }) => c.id)).toEqual([response.body.connection.id]);
    const other = await ctx.newClient({ role: 'admin' });
    const otherList = await ctx.http.get('/api/connections').set('Authorization', `Bearer ${other.token}`);
    expect(otherList.body).toEqual({ connections: [] });
  });
  it('keeps every name on one line of plain text: control characters are stripped on input', async () => {
    const auth = { Authorization: `Bearer ${admin.token}` };
    const forged = 'Acme\r\nBcc: attacker@evil.example\u0007\u202E';
    const created = await create({
      org_url: org.sim.baseUrl,
      client_id: org.integration.clientId,
      client_secret: org.integration.clientSecret,
      org_name: forged,
    });
    expect(created.status).toBe(201);
    expect(created.body.connection.org_name).toBe('Acme Bcc: attacker@evil.example');
    const id = created.body.connection.id as string;
    const renamed = await ctx.http.patch(`/api/connections/${id}`).set(auth).send({ org_name: 'Prod\n\tEU' });
    expect(renamed.body.connection.org_name).toBe('Prod EU');
    expect((await ctx.http.get(`/api/connections/${id}`).set(auth)).body.connection.org_name).toBe('Prod EU');

    // Team and integration client names (the CLI's team:create and client:create) go the same way.
    const teams = ctx.app.get(TeamsService);
    const { team } = await teams.createTeam({
      name: 'Team\r\nX-Injected: 1',
      ownerEmail: 'names@example.com',
    });
    expect(team.name).toBe('Team X-Injected: 1');
    await teams.createClient({ teamId: team.id, role: 'admin', name: 'CI\r\njob' });
    const owner = await ctx.newClient({ role: 'admin', teamId: team.id });
    const clients = await ctx.http.get('/api/team/clients').set('Authorization', `Bearer ${owner.token}`);
    expect(clients.body.clients.map((c: { name: string }) => c.name)).toContain('CI job');
    await expect(teams.createTeam({ name: '\r\n\u0000', ownerEmail: 'names2@example.com' })).rejects.toThrow(
      /Team name must be 1 to/,
    );
  });

  it('renames a connection and proves changed credentials before keeping them', async () => {
    const auth = { Authorization: `Bearer ${admin.token}` };
    const id = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    const before = (await ctx.http.get(`/api/connections/${id}`).set(auth)).body.connection;

    const renamed = await ctx.http.patch(`/api/connections/${id}`).set(auth).send({ org_name: 'Production' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.connection).toMatchObject({
      id,
      org_name: 'Production',
      last_verified_at: before.last_verified_at,
    });

    const refused = await ctx.http
      .patch(`/api/connections/${id}`)
      .set(auth)
      .send({ client_secret: 'not-the-secret' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^Connection check failed: .*invalid_client/);

    const rotated = await installApiServiceIntegration(org.sim, OKTA_BACKUP_SCOPES);
    const changed = await ctx.http
      .patch(`/api/connections/${id}`)
      .set(auth)
      .send({ client_id: rotated.clientId, client_secret: rotated.clientSecret });
    expect(changed.status).toBe(200);
    expect(changed.body.connection.client_id).toBe(rotated.clientId);
    expect(Date.parse(changed.body.connection.last_verified_at)).toBeGreaterThan(
      Date.parse(before.last_verified_at),
    );

    const run = await ctx.http
      .post('/api/backup/run')
      .set(auth)
      .send({ connectionId: id, include: ['group'] });
    expect(run.status).toBe(202);
    expect(await waitForBackup(ctx, admin.token, run.body.backupId)).toMatchObject({ status: 'completed' });
  });

  it('deletes a connection but keeps its backups readable', async () => {
    const auth = { Authorization: `Bearer ${admin.token}` };
    const id = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    const run = await ctx.http
      .post('/api/backup/run')
      .set(auth)
      .send({ connectionId: id, include: ['network_zone'] });
    await waitForBackup(ctx, admin.token, run.body.backupId);

    const deleted = await ctx.http.delete(`/api/connections/${id}`).set(auth);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true });
    expect((await ctx.http.get(`/api/connections/${id}`).set(auth)).status).toBe(404);
    expect((await ctx.http.delete(`/api/connections/${id}`).set(auth)).status).toBe(404);
    expect((await ctx.http.post('/api/backup/run').set(auth).send({ connectionId: id })).status).toBe(404);
    const list = await ctx.http.get('/api/connections').set(auth);
    expect(list.body.connections.map((c: { id: string }) => c.id)).not.toContain(id);

    const kept = await ctx.http.get(`/api/backup/${run.body.backupId}`).set(auth);
    expect(kept.status).toBe(200);
    expect(kept.body.backup).toMatchObject({ status: 'completed', connection_id: id });
  });

  it("refuses a viewer (403) and hides another team's connection (404) on PATCH and DELETE", async () => {
    const id = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    const viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
    expect(
      (
        await ctx.http
          .patch(`/api/connections/${id}`)
          .set('Authorization', `Bearer ${viewer.token}`)
          .send({ org_name: 'x' })
      ).status,
    ).toBe(403);
    const stranger = await ctx.newClient({ role: 'super_admin' });
    const auth = { Authorization: `Bearer ${stranger.token}` };
    expect((await ctx.http.patch(`/api/connections/${id}`).set(auth).send({ org_name: 'x' })).status).toBe(
      404,
    );
    expect((await ctx.http.delete(`/api/connections/${id}`).set(auth)).status).toBe(404);
    expect(
      (await ctx.http.get(`/api/connections/${id}`).set('Authorization', `Bearer ${admin.token}`)).body
        .connection.org_name,
    ).toBe('Test org');
  });
});
