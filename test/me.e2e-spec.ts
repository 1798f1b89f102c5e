import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { Browser, type BrowserResponse } from './support/browser.js';
import { newAddress, signInWithCode } from './support/sign-in-helpers.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

const EVERY_PERMISSION = [
  'view backups',
  'run backups',
  'manage connections',
  'restore',
  'compliance',
  'export',
  'view notifications',
  'account erasure',
  'manage team',
];

/**
 * GET /api/me and POST /api/me/team (DESIGN section 9, docs/api.md "The caller"): a person in two
 * teams sees both with role and permissions, the current one's plan, limits and usage; switching
 * re-binds the session so that team-scoped calls act on the other team; a team not theirs is a
 * 404; a pending deletion shows; an integration client sees its one team.
 */
describe('GET /api/me and POST /api/me/team (HTTP, real PostgreSQL)', () => {
  let ctx: TestApp;
  let email: string;
  let userId: string;
  /** Owned by the person, on the `team` plan. */
  let alpha: { id: string; name: string; admin: TestClient };
  /** Someone else's team, where the person was invited as viewer. */
  let beta: TestClient;
  let browser: Browser;

  /** The browser's answer, checked against the OpenAPI document as `ctx.http`'s are. */
  const checked = (method: string, path: string, response: BrowserResponse) => {
    const answer = {
      status: response.status,
      headers: { 'content-type': response.headers.get('content-type') ?? '' },
      body: JSON.parse(response.text),
    };
    expect(ctx.contract.problems(method, path, answer)).toEqual([]);
    return { ...answer, headers: response.headers };
  };
  const sessionGet = async (path: string) => checked('get', path, await browser.get(`${ctx.baseUrl}${path}`));
  const switchTo = async (teamId: unknown, origin?: string) =>
    checked(
      'post',
      '/api/me/team',
      await browser.postJson(`${ctx.baseUrl}/api/me/team`, { teamId }, { origin }),
    );

  beforeAll(async () => {
    ctx = await startTestApp();
    email = newAddress('two-teams');
    const teams = ctx.app.get(TeamsService);
    const created = await teams.createTeam({ name: `Alpha ${randomUUID().slice(0, 6)}`, ownerEmail: email });
    userId = created.owner.id;
    await ctx.app.get(PlanLimitsService).setPlan(created.team.id, 'team');
    alpha = {
      id: created.team.id,
      name: created.team.name,
      admin: await ctx.newClient({ teamId: created.team.id, role: 'admin' }),
    };
    // One open invitation in Alpha: a seat used.
    await ctx.http
      .post('/api/team/invitations')
      .set('Authorization', `Bearer ${alpha.admin.token}`)
      .send({ email: newAddress('invited'), role: 'operator' })
      .expect(201);
    beta = await ctx.newClient();
    await ctx.http
      .post('/api/team/invitations')
      .set('Authorization', `Bearer ${beta.token}`)
      .send({ email, role: 'viewer' })
      .expect(201);
    browser = new Browser();
    // The sign-in accepts the invitation and lands in Beta.
    expect((await signInWithCode(ctx, browser, email)).status).toBe(200);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('lists both teams with role and permissions, the current one with its plan and usage', async () => {
    const me = await sessionGet('/api/me');
    expect(me.status).toBe(200);
    const betaName = me.body.teams.find((team: { id: string }) => team.id === beta.teamId)?.name;
    expect(me.body).toEqual({
      authenticated_by: 'session',
      user: { id: userId, email, name: null },
      client: null,
      teams: [
        {
          id: alpha.id,
          name: alpha.name,
          role: 'super_admin',
          permissions: EVERY_PERMISSION,
          current: false,
          deletion_scheduled_for: null,
        },
        {
          id: beta.teamId,
          name: betaName,
          role: 'viewer',
          permissions: ['view backups', 'view notifications'],
          current: true,
          deletion_scheduled_for: null,
        },
      ],
      current_team: {
        id: beta.teamId,
        name: betaName,
        role: 'viewer',
        permissions: ['view backups', 'view notifications'],
        current: true,
        deletion_scheduled_for: null,
        plan: {
          name: 'enterprise',
          since: expect.any(String),
          trial_ends_at: null,
          limits: {
            connections: null,
            provider_kinds: null,
            manual_backups_per_day: null,
            schedule_frequencies: null,
            compliance_frameworks: null,
            exports_per_month: null,
            members: null,
            retention_days: 365,
            retention_count: 365,
          },
          // Beta's owner and the person.
          usage: { connections: 0, manual_backups_today: 0, exports_this_month: 0, members: 2 },
        },
      },
    });
  });

  it('switches the session to the other team, where team-scoped calls then act', async () => {
    expect((await sessionGet('/api/team/members')).status).toBe(403); // a viewer in Beta

    const switched = await switchTo(alpha.id);
    expect(switched.status).toBe(200);
    expect(switched.body.current_team).toMatchObject({
      id: alpha.id,
      role: 'super_admin',
      plan: {
        name: 'team',
        limits: { connections: 10, manual_backups_per_day: 200, exports_per_month: 4, members: 50 },
        // The person and the open invitation.
        usage: { connections: 0, manual_backups_today: 0, exports_this_month: 0, members: 2 },
      },
    });
    const me = await sessionGet('/api/me');
    expect(me.body.current_team.id).toBe(alpha.id);
    expect(me.body.teams.map((team: { id: string; current: boolean }) => [team.id, team.current])).toEqual([
      [alpha.id, true],
      [beta.teamId, false],
    ]);
    const members = await sessionGet('/api/team/members');
    expect(members.status).toBe(200);
    expect(members.body.members).toEqual([expect.objectContaining({ user_id: userId, role: 'super_admin' })]);

    // ... and back, without signing in again.
    expect((await switchTo(beta.teamId)).body.current_team.id).toBe(beta.teamId);
    expect((await sessionGet('/api/team/members')).status).toBe(403);
  });

  it('answers 404 for a team the person is not in, 400 for a malformed id, and keeps the session where it was', async () => {
    const stranger = await ctx.newClient();
    for (const teamId of [stranger.teamId, randomUUID()]) {
      const refused = await switchTo(teamId);
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ code: 'not_found' });
    }
    expect((await switchTo('not-a-uuid')).status).toBe(400);
    expect((await sessionGet('/api/me')).body.current_team.id).toBe(beta.teamId);
  });

  it('refuses a switch from a foreign origin (CSRF) and takes it from the console', async () => {
    expect((await switchTo(alpha.id, 'https://evil.example')).status).toBe(403);
    expect((await sessionGet('/api/me')).body.current_team.id).toBe(beta.teamId);
    expect((await switchTo(alpha.id, 'http://localhost:5173')).status).toBe(200);
  });

  it('shows a pending deletion of a team, current or not', async () => {
    await switchTo(alpha.id);
    const scheduled = await browser.postJson(`${ctx.baseUrl}/api/account/delete`, { confirm: 'DELETE' });
    expect(scheduled.status).toBe(202);
    const scheduledFor = JSON.parse(scheduled.text).scheduled_for as string;

    const me = await sessionGet('/api/me');
    expect(me.body.current_team.deletion_scheduled_for).toBe(scheduledFor);
    expect(me.headers.get('x-account-deletion')).toBe(scheduledFor);
    // The switch's answer is about the team switched to, headers included.
    const toBeta = await browser.postJson(`${ctx.baseUrl}/api/me/team`, { teamId: beta.teamId });
    expect([toBeta.status, toBeta.headers.get('x-account-deletion')]).toEqual([200, null]);
    const toAlpha = await browser.postJson(`${ctx.baseUrl}/api/me/team`, { teamId: alpha.id });
    expect(toAlpha.headers.get('x-account-deletion')).toBe(scheduledFor);
    await switchTo(beta.teamId);
    const elsewhere = await sessionGet('/api/me');
    expect(elsewhere.body.current_team.deletion_scheduled_for).toBeNull();
    expect(elsewhere.body.teams[0]).toMatchObject({ id: alpha.id, deletion_scheduled_for: scheduledFor });

    await ctx.http
      .delete('/api/account/delete')
      .set('Authorization', `Bearer ${(await ctx.newClient({ teamId: alpha.id })).token}`)
      .expect(200);
    expect((await sessionGet('/api/me')).body.teams[0].deletion_scheduled_for).toBeNull();
  });

  it('answers an integration client with its one team, the role it acts with, and no user; its team cannot be switched', async () => {
    const operator = await ctx.newClient({ teamId: alpha.id, role: 'operator' });
    const response = await ctx.http
      .get('/api/me')
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);
    expect(response.body).toEqual({
      authenticated_by: 'client',
      user: null,
      client: {
        client_id: operator.clientId,
        name: 'operator integration',
        role: 'operator',
        acts_for_user_id: userId,
      },
      teams: [
        {
          id: alpha.id,
          name: alpha.name,
          role: 'operator',
          permissions: ['view backups', 'run backups', 'view notifications'],
          current: true,
          deletion_scheduled_for: null,
        },
      ],
      current_team: expect.objectContaining({
        id: alpha.id,
        role: 'operator',
        plan: expect.objectContaining({ name: 'team' }),
      }),
    });
    const refused = await ctx.http
      .post('/api/me/team')
      .set('Authorization', `Bearer ${operator.token}`)
      .send({ teamId: alpha.id });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'team_bound_to_token' });
  });

  it('answers 401 without credentials', async () => {
    const response = await ctx.http.get('/api/me');
    expect(response.status).toBe(401);
  });
});
