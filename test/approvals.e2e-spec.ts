import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { ApprovalExpiryJob } from '@app/approvals/approval-expiry.job.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { dirname } from 'node:path';
import { startSimulator } from '@libs/simulators/okta/index.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { installApiServiceIntegration } from '@tools/demo/okta-api-service.js';
import { rememberSecrets } from './support/log-capture.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { Browser, type BrowserResponse } from './support/browser.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { RESTORE_SCOPES, waitForRestore } from './support/restore-helpers.js';
import { signInWithCode } from './support/sign-in-helpers.js';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A person signed in to the team through the session cookie (an approver must be a person). */
interface Person {
  userId: string;
  email: string;
  browser: Browser;
}

/**
 * Two-person approval (docs/approvals.md): the real app over HTTP on real PostgreSQL, people
 * signed in with sessions, an integration client, the Okta simulator over HTTPS whose state
 * proves what an approved restore did, and an SMTP sink for the approvers' e-mail.
 */
describe('two-person approval (HTTP, real PostgreSQL, simulator over HTTPS, SMTP)', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let sink: SmtpSink;
  let ctx: TestApp;
  let db: pg.Client;
  let owner: TestClient;
  let other: TestClient;
  let requester: Person;
  let approver: Person;
  let ownerPerson: Person;
  let backup: BackupDto;

  const bearer = (client: TestClient = owner) => ({ Authorization: `Bearer ${client.token}` });
  const api = (path: string) => `${ctx.baseUrl}${path}`;
  const json = (response: BrowserResponse): Json => JSON.parse(response.text) as Json;
  const post = async (person: Person, path: string, body: unknown = {}) => {
    const response = await person.browser.postJson(api(path), body);
    return { status: response.status, body: json(response) };
  };
  const get = async (person: Person, path: string) => {
    const response = await person.browser.get(api(path));
    return { status: response.status, body: json(response) };
  };
  const liveGroupNamed = (name: string) =>
    org.sim.snapshot().group.find((group) => (group.data.profile as Json).name === name);
  const restoreCount = async (): Promise<number> =>
    (await ctx.http.get('/api/restore/history').set(bearer()).expect(200)).body.total as number;
  const trail = async (approvalId: string): Promise<string[]> => {
    const response = await ctx.http
      .get('/api/audit-events')
      .query({ targetId: approvalId })
      .set(bearer())
      .expect(200);
    return (response.body.events as Json[]).map((event) => event.action as string).reverse();
  };
  /** The sign-in code mailed to `email`, read from the sink: the body after the headers. */
  const mailedCode = async (email: string): Promise<string> => {
    const mail = await waitForMail(email, /sign-in code/);
    return /\b(\d{6})\b/.exec(mail.slice(mail.indexOf('\r\n\r\n')))?.[1] ?? '';
  };
  const waitForMail = async (to: string, subject: RegExp, timeoutMs = 30_000): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = [...sink.messages]
        .reverse()
        .find(
          (mail) =>
            mail.to.some((address) => address.toLowerCase() === to.toLowerCase()) &&
            subject.test(mail.data.replace(/\r\n[ \t]+/g, ' ')),
        );
      if (found) return found.data;
      if (Date.now() > deadline) throw new Error(`No mail to ${to} matching ${subject}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const signIn = async (email: string): Promise<Person> => {
    const browser = new Browser();
    const answer = await signInWithCode(ctx, browser, email, mailedCode);
    expect(answer.status).toBe(200);
    const userId = (await ctx.app.get(TeamsService).resolveSignIn(email))!.userId;
    return { userId, email, browser };
  };
  const join = async (role: 'admin'): Promise<Person> => {
    const email = `member-${randomBytes(4).toString('hex')}@example.com`;
    await ctx.http.post('/api/team/invitations').set(bearer()).send({ email, role }).expect(201);
    return signIn(email);
  };
  const setApprovals = (body: Json) => ctx.http.put('/api/team/approval-settings').set(bearer()).send(body);
  const deleteGroup = async (name: string) => {
    const group = liveGroupNamed(name)!;
    const response = await okta.call('DELETE', `/api/v1/groups/${group.id}`);
    expect(response.status).toBe(204);
  };
  const restoreGroups = { mode: 'selective', resourceTypes: ['group'] };

  beforeAll(async () => {
    org = await startTestOrg({ users: 8, groups: 4, apps: 1, seed: 52 }, RESTORE_SCOPES);
    okta = new SimulatorClient(org.sim);
    sink = await startSmtpSink();
    ctx = await startTestApp({ ...org.env, SMTP_URL: sink.url, JOB_POLL_SECONDS: '0.5' });
    db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    owner = await ctx.newClient({ role: 'super_admin' });
    other = await ctx.newClient({ role: 'super_admin' });
    requester = await join('admin');
    approver = await join('admin');
    ownerPerson = await signIn((await ctx.app.get(TeamsService).getOwner(owner.teamId)).email);
    const connectionId = await createConnection(ctx, owner.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    for (const name of ['Approval alpha', 'Approval beta', 'Approval gamma'])
      expect((await okta.call('POST', '/api/v1/groups', { json: { profile: { name } } })).status).toBe(200);
    backup = await runBackup(ctx, owner.token, { connectionId });
    const on = await setApprovals({ enabled: true, backup_delete: true }).expect(200);
    expect(on.body.settings).toMatchObject({ enabled: true, backup_delete: true, expiry_hours: 24 });
  });
  afterAll(async () => {
    await db?.end();
    await ctx?.close();
    await sink?.close();
    await org?.sim.close();
  });

  it('holds a restore (202 pending, with the dry run the requester saw); a second member sees what changed since, approves, and it runs once', async () => {
    await deleteGroup('Approval alpha');
    const before = await restoreCount();
    const asked = await post(requester, '/api/restore', { backupId: backup.id, ...restoreGroups });
    expect(asked.status).toBe(202);
    const approval = asked.body.approval as Json;
    expect(asked.body.status).toBe('pending_approval');
    expect(approval).toMatchObject({
      action: 'restore',
      status: 'pending',
      what: { type: 'backup', id: backup.id },
      requester: { user_id: requester.userId, role: 'admin', client_id: null },
      body: { backupId: backup.id, ...restoreGroups },
    });
    expect(Date.parse(approval.expires_at) - Date.parse(approval.created_at)).toBeGreaterThan(
      23.9 * 3_600_000,
    );
    const seen = (approval.preview.preview as Json[]).find((row) => row.resourceType === 'group');
    expect(seen).toMatchObject({ create: 1 });
    expect(await restoreCount()).toBe(before);
    expect(liveGroupNamed('Approval alpha')).toBeUndefined();

    // The requester cannot approve their own request.
    const own = await post(requester, `/api/approvals/${approval.id}/approve`);
    expect([own.status, own.body.code]).toEqual([403, 'forbidden']);

    // The org moves meanwhile: the approver's detail re-reads it and names the difference.
    await deleteGroup('Approval beta');
    const detail = await get(approver, `/api/approvals/${approval.id}`);
    expect(detail.status).toBe(200);
    expect(
      (detail.body.live.preview.preview as Json[]).find((row) => row.resourceType === 'group'),
    ).toMatchObject({
      create: 2,
    });
    expect(detail.body.live.changes).toEqual(
      expect.arrayContaining([
        { op: 'test', path: '/rows/group/create', value: 1 },
        { op: 'replace', path: '/rows/group/create', value: 2 },
      ]),
    );

    // Two approvers at once: one wins, the other is told it is no longer pending.
    const [first, second] = await Promise.all([
      post(approver, `/api/approvals/${approval.id}/approve`, { note: 'checked the diff' }),
      post(ownerPerson, `/api/approvals/${approval.id}/approve`),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const won = first.status === 200 ? first : second;
    const lost = first.status === 200 ? second : first;
    expect(lost.body.code).toBe('approval_not_pending');
    expect(won.body.approval).toMatchObject({ status: 'executed', error: null });
    const restoreId = won.body.approval.result.restoreId as string;
    const done = await waitForRestore(ctx, owner.token, restoreId);
    expect(done.restore.status).toBe('completed');
    expect(liveGroupNamed('Approval alpha')).toBeDefined();
    expect(liveGroupNamed('Approval beta')).toBeDefined();
    // Approving again changes nothing and runs nothing.
    const again = await post(approver, `/api/approvals/${approval.id}/approve`);
    expect([again.status, again.body.code]).toEqual([409, 'approval_not_pending']);
    expect(await restoreCount()).toBe(before + 1);

    expect(await trail(approval.id)).toEqual([
      'approval.requested',
      'approval.approved',
      'approval.executed',
    ]);
  });

  it('holds a restore into another org; the approver sees the preview re-read against the target, approves, and it runs into the target', async () => {
    // A second org of the team, trusted through the same CA: the restore writes there.
    const target = await startSimulator({
      users: 0,
      groups: 0,
      apps: 0,
      seed: 53,
      certDir: dirname(org.sim.caCertPath),
    });
    try {
      const integration = await installApiServiceIntegration(target, RESTORE_SCOPES);
      rememberSecrets(integration.clientSecret);
      const targetId = await createConnection(ctx, owner.token, { baseUrl: target.baseUrl, ...integration });
      const targetGroup = (name: string) =>
        target.snapshot().group.find((group) => (group.data.profile as Json).name === name);
      // In full: the groups' members and owners are the backup's users, which the target lacks.
      const body = { backupId: backup.id, targetConnectionId: targetId, mode: 'full' };
      const before = await restoreCount();
      const asked = await post(requester, '/api/restore', body);
      expect(asked.status).toBe(202);
      const approval = asked.body.approval as Json;
      expect(approval).toMatchObject({ status: 'pending', body });
      expect(approval.what.summary).toContain(`into another org, ${target.baseUrl}`);
      const seen = approval.preview.crossOrg.objects as Json[];
      expect(seen.find((object) => object.name === 'Approval gamma')).toMatchObject({ action: 'create' });
      expect(approval.preview.crossOrg.targetConnectionId).toBe(targetId);

      // The target moves meanwhile: the approver's re-read is of the target, and names the object.
      const okTarget = new SimulatorClient(target);
      try {
        const made = await okTarget.call('POST', '/api/v1/groups', {
          json: { profile: { name: 'Approval gamma' } },
        });
        expect(made.status).toBe(200);
      } finally {
        await okTarget.close();
      }
      const detail = await get(approver, `/api/approvals/${approval.id}`);
      expect(detail.status).toBe(200);
      const gamma = (detail.body.live.preview.crossOrg.objects as Json[]).find(
        (object) => object.name === 'Approval gamma',
      )!;
      expect(gamma).toMatchObject({ action: 'same', targetId: targetGroup('Approval gamma')!.id });
      const key = `/crossOrg/group:${String(gamma.sourceId)}/action`;
      expect(detail.body.live.changes).toEqual(
        expect.arrayContaining([
          { op: 'test', path: key, value: 'create' },
          { op: 'replace', path: key, value: 'same' },
        ]),
      );

      const approved = await post(approver, `/api/approvals/${approval.id}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.body.approval).toMatchObject({ status: 'executed', error: null });
      const done = await waitForRestore(ctx, owner.token, approved.body.approval.result.restoreId as string);
      expect(done.items.filter((item) => item.outcome === 'failed')).toEqual([]);
      expect(done.restore).toMatchObject({ status: 'completed', connection_id: targetId });
      expect(await restoreCount()).toBe(before + 1);
      // Into the target, not the source: the backup's groups are in the target now.
      for (const name of ['Approval beta', 'Approval gamma']) expect(targetGroup(name)).toBeDefined();
      expect(
        org.sim.snapshot().group.filter((group) => (group.data.profile as Json).name === 'Approval gamma'),
      ).toHaveLength(1);
    } finally {
      await target.close();
    }
  });

  it('tells the approvers (inbox and e-mail), never the requester', async () => {
    const asked = await post(requester, '/api/restore', { backupId: backup.id, ...restoreGroups });
    expect(asked.status).toBe(202);
    const id = asked.body.approval.id as string;
    /** `person`'s notifications of the request, waiting up to `waitMs` for one to arrive. */
    const inboxOf = async (person: Person, waitMs = 30_000): Promise<Json[]> => {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const list = (await get(person, '/api/notifications')).body.notifications as Json[];
        const found = list.filter((n) => n.type === 'approval.requested' && n.data.target.id === id);
        if (found.length || Date.now() > deadline) return found;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    expect(await inboxOf(approver)).toEqual([
      expect.objectContaining({ severity: 'high', title: 'A request waits for your approval' }),
    ]);
    await waitForMail(approver.email, /waits for your approval/);
    // One fan-out job writes every recipient's row at once: the approver's being there, the
    // requester's would be too.
    expect(await inboxOf(requester, 0)).toEqual([]);
    const rejected = await post(approver, `/api/approvals/${id}/reject`, { reason: 'not now' });
    expect(rejected.status).toBe(200);
  });

  it('never runs a rejected request', async () => {
    const before = await restoreCount();
    const asked = await post(requester, '/api/restore', { backupId: backup.id, ...restoreGroups });
    const id = asked.body.approval.id as string;
    const missingReason = await post(approver, `/api/approvals/${id}/reject`, {});
    expect([missingReason.status, missingReason.body.code]).toEqual([400, 'validation_failed']);
    const rejected = await post(approver, `/api/approvals/${id}/reject`, { reason: 'Wrong backup' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.approval).toMatchObject({
      status: 'rejected',
      reason: 'Wrong backup',
      decided_by: approver.userId,
    });
    const late = await post(ownerPerson, `/api/approvals/${id}/approve`);
    expect([late.status, late.body.code]).toEqual([409, 'approval_not_pending']);
    expect(await restoreCount()).toBe(before);
    expect(await trail(id)).toEqual(['approval.requested', 'approval.rejected']);
  });

  it('never runs an expired request (409 approval_expired), and says it expired', async () => {
    const before = await restoreCount();
    const asked = await post(requester, '/api/restore', { backupId: backup.id, ...restoreGroups });
    const id = asked.body.approval.id as string;
    // Its 24 hours pass (the clock of the database moves the deadline, not the test's).
    await db.query(`UPDATE approvals SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    const late = await post(approver, `/api/approvals/${id}/approve`);
    expect([late.status, late.body.code]).toEqual([409, 'approval_expired']);
    expect((await get(approver, `/api/approvals/${id}`)).body.approval.status).toBe('expired');
    const expired = await get(approver, '/api/approvals?status=expired');
    expect((expired.body.approvals as Json[]).map((a) => a.id)).toContain(id);
    expect(await restoreCount()).toBe(before);
    expect(await trail(id)).toEqual(['approval.requested', 'approval.expired']);
  });

  it('marks an overdue request expired by the sweep, though nobody looks', async () => {
    const asked = await post(requester, '/api/restore', { backupId: backup.id, ...restoreGroups });
    const id = asked.body.approval.id as string;
    await db.query(`UPDATE approvals SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    // What the scheduler does every five minutes.
    expect(await ctx.app.get(ApprovalExpiryJob).enqueue(new Date())).toEqual(expect.any(String));
    const deadline = Date.now() + 30_000;
    while (!(await trail(id)).includes('approval.expired') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await trail(id)).toEqual(['approval.requested', 'approval.expired']);
    const { rows } = await db.query<{ status: string }>('SELECT status FROM approvals WHERE id = $1', [id]);
    expect(rows).toEqual([{ status: 'expired' }]);
  });

  it('lets an integration client request but never approve; another team sees nothing', async () => {
    const asked = await ctx.http
      .post('/api/restore')
      .set(bearer())
      .send({ backupId: backup.id, ...restoreGroups })
      .expect(202);
    const id = asked.body.approval.id as string;
    expect(asked.body.approval.requester).toMatchObject({
      client_id: owner.clientId,
      user_id: owner.ownerUserId,
    });
    const byClient = await ctx.http.post(`/api/approvals/${id}/approve`).set(bearer()).send({});
    expect([byClient.status, byClient.body.code]).toEqual([403, 'forbidden']);
    // The member the client acts for is its requester too.
    expect((await post(ownerPerson, `/api/approvals/${id}/approve`)).status).toBe(403);
    for (const path of [`/api/approvals/${id}`, `/api/approvals/${randomUUID()}`])
      expect((await ctx.http.get(path).set(bearer(other))).status).toBe(404);
    expect(
      (await ctx.http.post(`/api/approvals/${id}/reject`).set(bearer(other)).send({ reason: 'x' })).status,
    ).toBe(404);
    const rejected = await post(approver, `/api/approvals/${id}/reject`, { reason: 'agents wait' });
    expect(rejected.status).toBe(200);
  });

  it('holds a backup deletion when the setting covers it, and deletes on approval', async () => {
    const connectionId = backup.connection_id;
    const extra = await runBackup(ctx, owner.token, { connectionId });
    const held = await ctx.http.delete(`/api/backup/${extra.id}`).set(bearer()).expect(202);
    expect(held.body.approval).toMatchObject({
      action: 'backup_delete',
      what: { type: 'backup', id: extra.id },
    });
    await ctx.http.get(`/api/backup/${extra.id}`).set(bearer()).expect(200);
    const approved = await post(approver, `/api/approvals/${held.body.approval.id}/approve`);
    expect(approved.body.approval.status).toBe('executed');
    await ctx.http.get(`/api/backup/${extra.id}`).set(bearer()).expect(404);
  });

  it('holds a connection deletion and an account deletion when the setting covers them; rejected, both stay', async () => {
    await setApprovals({ connection_delete: true, account_delete: true }).expect(200);
    const connectionId = await createConnection(ctx, owner.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    const heldConnection = await ctx.http
      .delete(`/api/connections/${connectionId}`)
      .set(bearer())
      .expect(202);
    expect(heldConnection.body.approval).toMatchObject({
      action: 'connection_delete',
      what: { type: 'connection', id: connectionId },
    });
    const heldAccount = await ctx.http
      .post('/api/account/delete')
      .set(bearer())
      .send({ confirm: 'DELETE' })
      .expect(202);
    expect(heldAccount.body).toMatchObject({
      status: 'pending_approval',
      approval: { action: 'account_delete', what: { type: 'team', id: owner.teamId } },
    });
    for (const held of [heldConnection, heldAccount]) {
      const rejected = await post(approver, `/api/approvals/${held.body.approval.id}/reject`, {
        reason: 'no',
      });
      expect(rejected.body.approval.status).toBe('rejected');
    }
    await ctx.http.get(`/api/connections/${connectionId}`).set(bearer()).expect(200);
    const me = await ctx.http.get('/api/me').set(bearer()).expect(200);
    expect(me.body.current_team.deletion_scheduled_for).toBeNull();
    // Turning the switches off while the setting is on waits too; rejected, they stay on.
    const off = await setApprovals({ connection_delete: false, account_delete: false }).expect(202);
    expect(off.body.approval.what.summary).toBe(
      'Turn off two-person approval: connection_delete, account_delete',
    );
    await post(approver, `/api/approvals/${off.body.approval.id}/reject`, { reason: 'keep them' });
    const settings = (await ctx.http.get('/api/team/approval-settings').set(bearer()).expect(200)).body
      .settings;
    expect(settings).toMatchObject({ connection_delete: true, account_delete: true });
  });

  it('turning the setting off is itself held until a second member approves', async () => {
    const off = await setApprovals({ enabled: false }).expect(202);
    expect(off.body.approval).toMatchObject({
      action: 'settings',
      status: 'pending',
      body: { enabled: false },
    });
    expect(
      (await ctx.http.get('/api/team/approval-settings').set(bearer()).expect(200)).body.settings.enabled,
    ).toBe(true);
    // Still on: a restore still waits.
    const stillHeld = await post(requester, '/api/restore', { backupId: backup.id, ...restoreGroups });
    expect(stillHeld.status).toBe(202);
    const approved = await post(approver, `/api/approvals/${off.body.approval.id}/approve`);
    expect(approved.body.approval.status).toBe('executed');
    expect(
      (await ctx.http.get('/api/team/approval-settings').set(bearer()).expect(200)).body.settings.enabled,
    ).toBe(false);
    expect(await trail(off.body.approval.id)).toEqual([
      'approval.requested',
      'approval.approved',
      'approval.executed',
    ]);
    // Off: a restore starts at once again.
    const started = await post(requester, '/api/restore', { backupId: backup.id, ...restoreGroups });
    expect([started.status, started.body.status]).toEqual([202, 'started']);
    await waitForRestore(ctx, owner.token, started.body.restoreId as string);
    // Turning it on needs nobody's approval; bounds are checked.
    await setApprovals({ enabled: true }).expect(200);
    const bad = await setApprovals({ expiry_hours: 500 }).expect(400);
    expect(bad.body.code).toBe('validation_failed');
  });
});
