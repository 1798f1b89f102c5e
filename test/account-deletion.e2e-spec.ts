import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { AccountDeletionJob } from '@app/identity/account/account-deletion.job.js';
import { objectStoreFor } from '@app/platform/storage/storage.module.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { Browser } from './support/browser.js';
import { signInWithCode } from './support/sign-in-helpers.js';
import { type ParsedMailbox, startParsedMailbox } from './support/parsed-mailbox.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Account deletion (docs/account.md, spec "Account data rights", "Limits"): the owner schedules it 30
 * days out, every member hears of it, responses carry X-Account-Deletion, it can be cancelled;
 * once the grace period has passed (the job is given a later "now") the team's rows and objects
 * are gone, apart from one counts row, and another team is untouched, byte for byte.
 */
describe('POST/DELETE /api/account/delete and the account-deletion job (HTTP, real PostgreSQL, store)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let db: pg.Client;
  let owner: TestClient;
  let admin: TestClient;
  let member: { userId: string; email: string; token: string };
  let other: TestClient;
  let otherOwnerEmail: string;
  /** Left the other team, where a connection and a backup are still theirs, for this team only. */
  let leaver: { userId: string; email: string };
  let ownerEmail: string;
  let mailbox: ParsedMailbox;

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const notified = async (token: string, type: string): Promise<Record<string, unknown>> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const response = await ctx.http.get('/api/notifications').set(bearer(token)).expect(200);
      const found = (response.body.notifications as Array<Record<string, unknown>>).find(
        (n) => n.type === type,
      );
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${type} notification`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  /** The six-digit code of the sign-in e-mail the SMTP server received for `email`. */
  const mailedCode = async (email: string): Promise<string> => {
    const [mail] = await mailbox.waitFor(
      (m) =>
        (m.parsed.to as { value: Array<{ address?: string }> }).value.some((a) => a.address === email) &&
        m.parsed.subject === 'Your idp-backup sign-in code',
      1,
    );
    return /\b(\d{6})\b/.exec(mail!.parsed.text ?? '')?.[1] ?? '';
  };
  /** Every row of every public table whose text names `id`, table by table, sorted. */
  const rowsNaming = async (id: string): Promise<Record<string, string[]>> => {
    const { rows: tables } = await db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    );
    const found: Record<string, string[]> = {};
    for (const { name } of tables) {
      const { rows } = await db.query<{ row: string }>(
        `SELECT t::text AS row FROM "${name}" t WHERE t::text LIKE '%' || $1 || '%' ORDER BY 1`,
        [id],
      );
      if (rows.length > 0) found[name] = rows.map((r) => r.row);
    }
    return found;
  };
  const storeKeys = async (prefix: string): Promise<string[]> => {
    const store = await objectStoreFor(ctx.config);
    const keys: string[] = [];
    for await (const entry of store.list(prefix)) keys.push(`${entry.key} ${entry.size}`);
    return keys.sort();
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 6, groups: 2, apps: 1, seed: 27 });
    mailbox = await startParsedMailbox();
    ctx = await startTestApp({ ...org.env, SMTP_URL: mailbox.url, JOB_POLL_SECONDS: '0.5' });
    db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    owner = await ctx.newClient({ role: 'super_admin' });
    admin = await ctx.newClient({ role: 'admin', teamId: owner.teamId });
    other = await ctx.newClient({ role: 'super_admin' });
    const teams = ctx.app.get(TeamsService);
    otherOwnerEmail = (await teams.getOwner(other.teamId)).email;
    ownerEmail = (await teams.getOwner(owner.teamId)).email;

    // A viewer of this team only, and the other team's owner, a member of both.
    const email = `member-${randomBytes(4).toString('hex')}@example.com`;
    for (const invited of [email, otherOwnerEmail]) {
      await ctx.http
        .post('/api/team/invitations')
        .set(bearer(owner.token))
        .send({ email: invited, role: 'viewer' })
        .expect(201);
      await teams.resolveSignIn(invited);
    }
    const signedIn = (await teams.resolveSignIn(email))!;
    const client = await teams.createClient({
      teamId: owner.teamId,
      role: 'viewer',
      createdBy: signedIn.userId,
    });
    member = { userId: signedIn.userId, email, token: await ctx.token(client.clientId, client.clientSecret) };

    for (const team of [owner, other]) {
      const connectionId = await createConnection(ctx, team.token, {
        baseUrl: org.sim.baseUrl,
        ...org.integration,
      });
      expect((await runBackup(ctx, team.token, { connectionId })).status).toBe('completed');
    }

    // An admin of the other team makes a connection and a backup there, then leaves it for this team.
    leaver = { userId: '', email: `leaver-${randomBytes(4).toString('hex')}@example.com` };
    await ctx.http
      .post('/api/team/invitations')
      .set(bearer(other.token))
      .send({ email: leaver.email, role: 'admin' })
      .expect(201);
    leaver.userId = (await teams.resolveSignIn(leaver.email))!.userId;
    const leaverClient = await teams.createClient({
      teamId: other.teamId,
      role: 'admin',
      createdBy: leaver.userId,
    });
    const leaverToken = await ctx.token(leaverClient.clientId, leaverClient.clientSecret);
    const leaverConnection = await createConnection(ctx, leaverToken, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    expect((await runBackup(ctx, leaverToken, { connectionId: leaverConnection })).status).toBe('completed');
    await ctx.http
      .post('/api/team/invitations')
      .set(bearer(owner.token))
      .send({ email: leaver.email, role: 'viewer' })
      .expect(201);
    await teams.resolveSignIn(leaver.email);
    await ctx.http.delete(`/api/team/members/${leaver.userId}`).set(bearer(other.token)).expect(200);
  });

  afterAll(async () => {
    await db?.end();
    await ctx?.close();
    await mailbox?.close();
    await org?.sim.close();
  });

  it('lets only the owner ask, with exactly { confirm: "DELETE" }', async () => {
    await ctx.http
      .post('/api/account/delete')
      .set(bearer(admin.token))
      .send({ confirm: 'DELETE' })
      .expect(403);
    await ctx.http.delete('/api/account/delete').set(bearer(admin.token)).expect(403);
    for (const body of [{}, { confirm: 'delete' }, { confirm: 'DELETE ' }, { confirm: true }]) {
      const response = await ctx.http.post('/api/account/delete').set(bearer(owner.token)).send(body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
    }
    await ctx.http.delete('/api/account/delete').set(bearer(owner.token)).expect(404);
  });

  it('schedules 30 days out (idempotent), says so on every response, notifies every member, and cancels', async () => {
    const asked = Date.now();
    const first = await ctx.http
      .post('/api/account/delete')
      .set(bearer(owner.token))
      .send({ confirm: 'DELETE' });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ status: 'scheduled', scheduled_for: expect.any(String) });
    const scheduledFor = Date.parse(first.body.scheduled_for as string);
    expect(scheduledFor).toBeGreaterThanOrEqual(asked + 30 * DAY_MS - 1000);
    expect(scheduledFor).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);
    const again = await ctx.http
      .post('/api/account/delete')
      .set(bearer(owner.token))
      .send({ confirm: 'DELETE' });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);

    const during = await ctx.http.get('/api/notifications').set(bearer(member.token)).expect(200);
    expect(during.headers['x-account-deletion']).toBe(first.body.scheduled_for);
    // The member signed in (a session, whose actor is read apart from a client's) is told too.
    const session = new Browser();
    expect((await signInWithCode(ctx, session, member.email, mailedCode)).status).toBe(200);
    const inSession = await session.get(`${ctx.baseUrl}/api/notifications`);
    expect([inSession.status, inSession.headers.get('x-account-deletion')]).toEqual([
      200,
      first.body.scheduled_for,
    ]);
    const elsewhere = await ctx.http.get('/api/connections').set(bearer(other.token)).expect(200);
    expect(elsewhere.headers['x-account-deletion']).toBeUndefined();

    for (const token of [owner.token, member.token]) {
      expect(await notified(token, 'account.deletion_scheduled')).toMatchObject({ severity: 'critical' });
    }
    // ... and by e-mail, every member (the other team's owner, a member here too, included).
    for (const address of [ownerEmail, member.email, otherOwnerEmail]) {
      await mailbox.waitFor(
        (mail) =>
          (mail.parsed.to as { value: Array<{ address?: string }> }).value.some(
            (a) => a.address === address,
          ) && /scheduled for deletion/.test(mail.parsed.subject ?? ''),
        1,
      );
    }

    await ctx.http
      .delete('/api/account/delete')
      .set(bearer(owner.token))
      .expect(200, { status: 'cancelled' });
    await ctx.http.delete('/api/account/delete').set(bearer(owner.token)).expect(404);
    const after = await ctx.http.get('/api/notifications').set(bearer(member.token)).expect(200);
    expect(after.headers['x-account-deletion']).toBeUndefined();
    const afterInSession = await session.get(`${ctx.baseUrl}/api/notifications`);
    expect([afterInSession.status, afterInSession.headers.get('x-account-deletion')]).toEqual([200, null]);
    await notified(member.token, 'account.deletion_cancelled');
  });

  it('erases every row and object of the team once the grace period is over, and nothing of another', async () => {
    const scheduled = await ctx.http
      .post('/api/account/delete')
      .set(bearer(owner.token))
      .send({ confirm: 'DELETE' })
      .expect(202);
    const scheduledFor = Date.parse(scheduled.body.scheduled_for as string);
    const prefix = `teams/${owner.teamId}/`;
    expect((await storeKeys(prefix)).length).toBeGreaterThan(0);
    expect(Object.keys(await rowsNaming(owner.teamId))).toEqual(
      expect.arrayContaining(['audit_events', 'backups', 'connections', 'team_members', 'teams']),
    );
    const otherRows = await rowsNaming(other.teamId);
    const otherObjects = await storeKeys(`teams/${other.teamId}/`);
    expect(otherObjects.length).toBeGreaterThan(0);

    const job = ctx.app.get(AccountDeletionJob);
    /** Enqueues the job judging by `now` and waits until pg-boss has it in one of `states`. */
    const runJob = async (now: Date, states = ['completed']): Promise<void> => {
      const id = await job.enqueue(now);
      expect(id).not.toBeNull();
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { rows } = await db.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [
          id,
        ]);
        if (states.includes(rows[0]?.state)) return;
        if (rows[0]?.state === 'failed' || Date.now() > deadline) throw new Error(`job ${rows[0]?.state}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };

    // The day before the grace period ends, nothing happens.
    await runJob(new Date(scheduledFor - DAY_MS));
    expect((await rowsNaming(owner.teamId)).teams).toHaveLength(1);

    // A run that dies mid-way (the database refuses one of its deletes) leaves the deletion open...
    const { rows: audited } = await db.query(
      'SELECT count(*)::int AS n FROM audit_events WHERE team_id = $1',
      [owner.teamId],
    );
    await db.query(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'simulated crash'; END $$`);
    await db.query(
      'CREATE TRIGGER refuse BEFORE DELETE ON connections FOR EACH ROW EXECUTE FUNCTION refuse()',
    );
    await runJob(new Date(scheduledFor + DAY_MS), ['retry', 'failed']);
    const { rows: open } = await db.query(
      'SELECT completed_at, counts FROM deleted_accounts WHERE team_id = $1',
      [owner.teamId],
    );
    expect(open).toEqual([{ completed_at: null, counts: expect.objectContaining({ backups: 1 }) }]);
    expect(await storeKeys(prefix)).toEqual([]);
    await db.query('DROP TRIGGER refuse ON connections; DROP FUNCTION refuse()');

    // ... and the next day's run finishes it, its counts whole.
    await runJob(new Date(scheduledFor + 2 * DAY_MS));
    const left = await rowsNaming(owner.teamId);
    expect(Object.keys(left)).toEqual(['deleted_accounts']);
    const { rows } = await db.query('SELECT * FROM deleted_accounts WHERE team_id = $1', [owner.teamId]);
    expect(Object.keys(rows[0]).sort()).toEqual(
      ['bytes_removed', 'completed_at', 'counts', 'deleted_at', 'objects_removed', 'team_id'].sort(),
    );
    // The two members of this team only went with their users (their memberships cascade); the
    // memberships of the other team's owner and of the one who left it went in their own step.
    expect(rows[0].counts).toMatchObject({ teams: 1, connections: 1, backups: 1, users: 2, team_members: 2 });
    expect(rows[0].counts.audit_events).toBe(audited[0].n);
    expect(Number(rows[0].objects_removed)).toBeGreaterThan(0);
    expect(Number(rows[0].bytes_removed)).toBeGreaterThan(0);
    expect(rows[0].completed_at).not.toBeNull();
    expect(await storeKeys(prefix)).toEqual([]);

    // Members of no other team are gone; the other team's owner, and everything of that team, stays.
    const { rows: users } = await db.query('SELECT email FROM users WHERE email = ANY($1)', [
      [member.email, otherOwnerEmail],
    ]);
    expect(users.map((u) => u.email)).toEqual([otherOwnerEmail]);
    // One who still owns the other team's rows keeps an account with nothing personal left in it.
    const { rows: kept } = await db.query('SELECT email, name FROM users WHERE id = $1', [leaver.userId]);
    expect(kept).toEqual([{ email: `erased-${leaver.userId}@invalid`, name: null }]);
    // Only the other team's own records still name the address (its append-only audit trail, its
    // invitation): that team's data, which the deletion of this one leaves as it was.
    const naming = Object.values(await rowsNaming(leaver.email)).flat();
    expect(naming.length).toBeGreaterThan(0);
    expect(naming.filter((row) => !row.includes(other.teamId))).toEqual([]);
    expect(rows[0].counts).toMatchObject({ users_erased: 1 });
    expect(await rowsNaming(other.teamId)).toEqual(otherRows);
    expect(await storeKeys(`teams/${other.teamId}/`)).toEqual(otherObjects);
    await ctx.http.get('/api/connections').set(bearer(other.token)).expect(200);
    await ctx.http.get('/api/connections').set(bearer(owner.token)).expect(401);
  });
});
