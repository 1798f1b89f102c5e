import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { BackupsService } from '@app/backups/backups.service.js';
import type { Role } from '@app/common/permission.js';
import { NotificationFanoutJob } from '@app/notifications/notification-fanout.job.js';
import { notificationFor } from '@app/notifications/notification-rules.js';
import { SchedulesService } from '@app/schedules/schedules.service.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { createConnection, runBackup, waitForBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { type ParsedMailbox, startParsedMailbox } from './support/parsed-mailbox.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;

/** A member of the team, signed in after an invitation, with a client acting for them. */
interface Member {
  role: Role;
  userId: string;
  email: string;
  token: string;
}

interface Notification {
  id: string;
  type: string;
  severity: string;
  title: string;
  message: string;
  data: Json;
  read_at: string | null;
  created_at: string;
}

const CONSOLE_URL = 'https://console.example.test';

/**
 * Notifications, their e-mail and drift alerts (docs/notifications.md), end to end: audit events fan out in
 * pg-boss jobs to every member allowed `view notifications`, e-mail reaches a real SMTP server on
 * loopback, and a backup after a policy weakening raises drift.detected.
 */
describe('notifications (HTTP, real PostgreSQL, simulator over HTTPS, SMTP on loopback)', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let mailbox: ParsedMailbox;
  let ctx: TestApp;
  let owner: TestClient;
  let ownerEmail: string;
  let members: Member[];
  let outsider: TestClient;
  let connectionId: string;

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const inbox = async (token: string, query: Json = {}): Promise<Notification[]> => {
    const response = await ctx.http.get('/api/notifications').query(query).set(bearer(token));
    expect(response.status).toBe(200);
    return response.body.notifications as Notification[];
  };
  /** Polls the inbox until a notification of `type` shows (fan-out is a job). */
  const notified = async (token: string, type: string): Promise<Notification> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const found = (await inbox(token)).find((n) => n.type === type);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${type} notification`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const everyone = (): Array<{ role: Role; token: string; email: string }> => [
    { role: 'super_admin', token: owner.token, email: ownerEmail },
    ...members,
  ];

  async function join(role: Exclude<Role, 'super_admin'>): Promise<Member> {
    const email = `member-${randomBytes(4).toString('hex')}@example.com`;
    await ctx.http.post('/api/team/invitations').set(bearer(owner.token)).send({ email, role }).expect(201);
    const teams = ctx.app.get(TeamsService);
    const signedIn = (await teams.resolveSignIn(email))!;
    const client = await teams.createClient({ teamId: owner.teamId, role, createdBy: signedIn.userId });
    return {
      role,
      userId: signedIn.userId,
      email,
      token: await ctx.token(client.clientId, client.clientSecret),
    };
  }

  beforeAll(async () => {
    org = await startTestOrg({ users: 20, groups: 4, apps: 2, seed: 25 });
    okta = new SimulatorClient(org.sim);
    mailbox = await startParsedMailbox();
    ctx = await startTestApp({ ...org.env, SMTP_URL: mailbox.url, CONSOLE_URL, JOB_POLL_SECONDS: '0.5' });
    owner = await ctx.newClient({ role: 'super_admin' });
    ownerEmail = (await ctx.app.get(TeamsService).getOwner(owner.teamId)).email;
    members = [];
    for (const role of ['admin', 'operator', 'auditor', 'viewer'] as const) members.push(await join(role));
    outsider = await ctx.newClient({ role: 'super_admin' });
    connectionId = await createConnection(ctx, owner.token, { baseUrl: org.sim.baseUrl, ...org.integration });
  });

  afterAll(async () => {
    await ctx?.close();
    await mailbox?.close();
    await okta?.agent.close();
    await org?.sim.close();
  });

  it("tells the team's admins of a client's first backup of a connection, in the app only", async () => {
    const backup = await runBackup(ctx, owner.token, { connectionId });
    expect(backup.status).toBe('completed');

    const first = await notified(owner.token, 'backup.completed');
    expect(first).toEqual({
      id: expect.any(String),
      type: 'backup.completed',
      severity: 'info',
      title: 'First backup of Test org completed',
      message: expect.stringMatching(/^\d+ resources captured\.$/),
      data: expect.objectContaining({
        target: { type: 'backup', id: backup.id },
        link: `/backups/${backup.id}`,
      }),
      read_at: null,
      created_at: expect.any(String),
    });
    const admin = members.find((m) => m.role === 'admin')!;
    await notified(admin.token, 'backup.completed');
    for (const member of members.filter((m) => m.role !== 'admin'))
      expect(await inbox(member.token)).toEqual([]);
  });

  it('raises drift.detected naming the rule after a password policy is weakened, for every member', async () => {
    const policy = org.sim.snapshot().policy.find((p) => p.data.type === 'PASSWORD')!;
    const weakened = await okta.call('PUT', `/api/v1/policies/${policy.id}`, { json: weaken(policy.data) });
    expect(weakened.status).toBe(200);
    const after = await runBackup(ctx, owner.token, { connectionId });
    expect(after.status).toBe('completed');

    for (const member of everyone()) {
      const drift = await notified(member.token, 'drift.detected');
      expect(drift).toMatchObject({
        severity: 'critical',
        title: 'Risky changes in Test org since its previous backup',
      });
      expect(drift.message).toContain('password-policy-weakened');
      expect(drift.data).toMatchObject({
        to_backup_id: after.id,
        by_severity: expect.objectContaining({ critical: expect.any(Number) }),
        top_changes: expect.arrayContaining([
          expect.objectContaining({
            resource_type: 'policy',
            resource_id: policy.id,
            rule: 'password-policy-weakened',
          }),
        ]),
      });
    }
    // Critical drift is e-mailed by default, to each member once.
    const mails = await mailbox.waitFor(
      (m) => /Risky changes/.test(m.parsed.subject ?? ''),
      everyone().length,
    );
    expect(recipients(mails)).toEqual(
      everyone()
        .map((m) => m.email.toLowerCase())
        .sort(),
    );
  });

  it('a scheduled backup Okta refuses: audit event, a notification for each member, an e-mail on the SMTP server', async () => {
    const revoked = await okta.call(
      'DELETE',
      `/integrations/api/v1/api-services/${org.integration.clientId}`,
    );
    expect(revoked.status).toBe(204);
    const hour = (new Date().getUTCHours() + 12) % 24;
    const schedule = await ctx.http
      .patch(`/api/connections/${connectionId}/schedule`)
      .set(bearer(owner.token))
      .send({ enabled: true, frequency: 'daily', hour, timezone: 'UTC' })
      .expect(200);
    const slot = new Date(Date.parse(schedule.body.schedule.next_run_at) + 1000);
    const backups = ctx.app.get(BackupsService);
    const [backupId] = await ctx.app
      .get(SchedulesService)
      .enqueueDue(slot, (teamId, id) => backups.startScheduled(teamId, id));
    expect(await waitForBackup(ctx, owner.token, backupId)).toMatchObject({ status: 'failed' });

    const trail = await ctx.http
      .get('/api/audit-events')
      .query({ action: 'backup.failed', targetId: backupId })
      .set(bearer(owner.token))
      .expect(200);
    expect(trail.body.events).toEqual([
      expect.objectContaining({
        actor: { type: 'schedule', id: null },
        target: { type: 'backup', id: backupId },
        outcome: 'failure',
        details: expect.objectContaining({ reason: 'credentials_invalid', triggered_by: 'schedule' }),
      }),
    ]);

    for (const member of everyone()) {
      const notification = await notified(member.token, 'connection.credentials_invalid');
      expect(notification).toMatchObject({
        severity: 'high',
        title: 'Okta refused the credentials of Test org',
      });
      expect(
        (await inbox(member.token)).filter((n) => n.type === 'connection.credentials_invalid'),
      ).toHaveLength(1);
    }

    const mails = await mailbox.waitFor(
      (m) => /refused the credentials/.test(m.parsed.subject ?? ''),
      everyone().length,
    );
    expect(recipients(mails)).toEqual(
      everyone()
        .map((m) => m.email.toLowerCase())
        .sort(),
    );
    for (const mail of mails) {
      expect(mail.parsed.subject).toBe('[idp-backup] Okta refused the credentials of Test org');
      expect(mail.parsed.text).toContain(`${CONSOLE_URL}/connections/${connectionId}`);
      expect(mail.parsed.html).toContain(`href="${CONSOLE_URL}/connections/${connectionId}"`);
      expect(mail.raw).toMatch(
        /^List-Unsubscribe: <https:\/\/console\.example\.test\/settings\/notifications>\r?$/m,
      );
      expect(mail.raw).not.toContain(org.integration.clientSecret);
    }
  });

  it('fans out nothing twice when the job runs again for the same event', async () => {
    const { body } = await ctx.http
      .get('/api/audit-events')
      .query({ action: 'backup.failed' })
      .set(bearer(owner.token))
      .expect(200);
    const event = body.events[0] as Json & {
      id: string;
      details: Json;
      target: { type: string; id: string };
    };
    const planned = notificationFor({
      id: event.id,
      teamId: owner.teamId,
      occurredAt: new Date(String(event.occurred_at)),
      actor: event.actor as { type: 'schedule'; id: null },
      action: 'backup.failed',
      target: event.target,
      outcome: 'failure',
      details: event.details,
    })!;
    expect(await ctx.app.get(NotificationFanoutJob).fanOut(planned)).toBe(0);
    const db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    const rows = await db.query('SELECT count(*)::int AS n FROM notifications WHERE event_id = $1', [
      event.id,
    ]);
    await db.end();
    expect(rows.rows[0].n).toBe(everyone().length);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(
      mailbox.messages.filter((m) => /refused the credentials/.test(m.parsed.subject ?? '')),
    ).toHaveLength(everyone().length);
  });

  it('marks read by id or all, only the caller’s; unreadOnly leaves them out', async () => {
    const viewer = members.find((m) => m.role === 'viewer')!;
    const [newest, ...older] = await inbox(viewer.token);
    const ownerNotification = (await inbox(owner.token))[0];
    const marked = await ctx.http
      .post('/api/notifications/read')
      .set(bearer(viewer.token))
      .send({ ids: [newest.id, ownerNotification.id] })
      .expect(200);
    expect(marked.body).toEqual({ ok: true, marked: 1 });
    expect((await inbox(viewer.token, { unreadOnly: true })).map((n) => n.id)).toEqual(
      older.map((n) => n.id),
    );
    expect((await inbox(owner.token)).find((n) => n.id === ownerNotification.id)?.read_at).toBeNull();

    await ctx.http.post('/api/notifications/read').set(bearer(viewer.token)).send({ all: true }).expect(200);
    expect(await inbox(viewer.token, { unreadOnly: true })).toEqual([]);
    const both = await ctx.http
      .post('/api/notifications/read')
      .set(bearer(viewer.token))
      .send({ all: true, ids: [newest.id] });
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('validation_failed');
  });

  it('keeps per-member preferences with defaults: failures and critical drift by e-mail', async () => {
    const operator = members.find((m) => m.role === 'operator')!;
    const get = () => ctx.http.get('/api/notifications/preferences').set(bearer(operator.token)).expect(200);
    const defaults = (await get()).body.preferences as Json[];
    expect(defaults).toEqual(
      expect.arrayContaining([
        { type: 'backup.failed', in_app: true, email: true, default: true },
        { type: 'backup.completed', in_app: 'first', email: false, default: true },
        { type: 'drift.detected', in_app: true, email: 'critical', default: true },
      ]),
    );
    const patched = await ctx.http
      .patch('/api/notifications/preferences')
      .set(bearer(operator.token))
      .send({ preferences: [{ type: 'backup.failed', email: false }] })
      .expect(200);
    expect(patched.body.preferences).toContainEqual({
      type: 'backup.failed',
      in_app: true,
      email: false,
      default: false,
    });
    const unknown = await ctx.http
      .patch('/api/notifications/preferences')
      .set(bearer(operator.token))
      .send({ preferences: [{ type: 'backup.exploded', email: false }] });
    expect(unknown.status).toBe(400);
    // Another member's preferences are untouched.
    const viewer = members.find((m) => m.role === 'viewer')!;
    const theirs = await ctx.http.get('/api/notifications/preferences').set(bearer(viewer.token)).expect(200);
    expect(theirs.body.preferences).toContainEqual({
      type: 'backup.failed',
      in_app: true,
      email: true,
      default: true,
    });
  });

  it("shows another team's member none of it, a viewer no audit trail (403); a completed backup is not e-mailed", async () => {
    expect(await inbox(outsider.token)).toEqual([]);
    expect(
      mailbox.messages.filter((m) => /backup of Test org completed/i.test(m.parsed.subject ?? '')),
    ).toEqual([]);
    const trail = await ctx.http.get('/api/audit-events').set(bearer(outsider.token)).expect(200);
    expect(trail.body.events).toEqual([]);
    const viewer = members.find((m) => m.role === 'viewer')!;
    const denied = await ctx.http.get('/api/audit-events').set(bearer(viewer.token));
    expect(denied.status).toBe(403);
  });
});

/** Lower-cased addresses the messages went to, sorted. */
function recipients(mails: Array<{ parsed: { to?: unknown } }>): string[] {
  return mails
    .map((mail) => {
      const to = mail.parsed.to as { value: Array<{ address?: string }> };
      return String(to.value[0].address).toLowerCase();
    })
    .sort();
}

/** The policy with a shorter minimum password length and unlimited lockout attempts (test/diff.e2e-spec.ts). */
function weaken(policy: Json): Json {
  const settings = structuredClone(policy.settings) as { password: { complexity: Json; lockout: Json } };
  settings.password.complexity.minLength = 8;
  settings.password.lockout.maxAttempts = 0;
  const { _links: _ignored, ...rest } = policy;
  return { ...rest, settings };
}
