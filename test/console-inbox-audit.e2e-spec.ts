import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { createConnection, runBackup, startBackup, waitForBackup } from './support/backup-helpers.js';
import { startConsoleSession, type ConsoleSession } from './support/console-session.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { newAddress } from './support/sign-in-helpers.js';
import type { TestApp } from './support/test-app.js';
import { describeWithTools } from './support/tools.js';
import { zipEntries } from './support/zip-entries.js';

type Json = Record<string, unknown>;
interface Notification {
  id: string;
  type: string;
  title: string;
  read_at: string | null;
}

/**
 * The console's notifications and audit trail in real Chromium against the real app, real
 * PostgreSQL and a simulated Okta org over HTTPS: a backup Okta refuses (its integration's
 * credentials revoked) reaches the inbox and the header's badge, is marked read there; the
 * preferences saved in the console are what the API answers; the audit trail filtered by action
 * and actor pages with the API's cursor, and its downloads are a PDF and a signed ZIP.
 */
describeWithTools('chromium')('console notifications and audit trail (real Chromium, real app)', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let session: ConsoleSession;
  let ctx: TestApp;
  let adminEmail: string;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let teamId: string;
  let connectionId: string;

  const bearer = () => ({ Authorization: `Bearer ${token}` });
  const inbox = async (query: Json = {}): Promise<Notification[]> => {
    const response = await ctx.http.get('/api/notifications').query(query).set(bearer());
    expect(response.status).toBe(200);
    return response.body.notifications as Notification[];
  };
  const expectNoFindings = () => {
    expect(session.findings.violations).toEqual([]);
    expect(session.findings.narrow).toEqual([]);
    expect(session.findings.pageErrors).toEqual([]);
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 10, groups: 2, apps: 1, seed: 61 });
    okta = new SimulatorClient(org.sim);
    // The header reads the unread count every 2 s (its server's config) rather than every 30 s: the
    // badge below still changes only through that poll, with no reload.
    session = await startConsoleSession(
      { ...org.env, SELF_SERVICE_TEAMS: 'true', JOB_POLL_SECONDS: '0.5' },
      { unreadPollSeconds: 2 },
    );
    ctx = session.app;
    // A new address signs in to a team of its own, as its owner (super_admin).
    adminEmail = newAddress('inbox-admin');
    context = await session.newContext();
    page = await session.signIn(context, adminEmail);
    const rows: Array<{ team_id: string }> = await ctx.app
      .get(DataSource)
      .query(
        'SELECT team_id FROM team_members m JOIN users u ON u.id = m.user_id WHERE lower(u.email) = lower($1)',
        [adminEmail],
      );
    teamId = rows[0].team_id;
    // A client acting for the owner (who may invite admins): what it does is the owner's in the
    // trail, its inbox the owner's.
    token = (await ctx.newClient({ role: 'super_admin', teamId })).token;
    connectionId = await createConnection(ctx, token, { baseUrl: org.sim.baseUrl, ...org.integration });
  }, 180_000);

  beforeEach(() => session?.resetFindings());

  afterAll(async () => {
    await context?.close();
    await session?.close();
    await okta?.close();
    await org?.sim.close();
  });

  it('shows a backup Okta refused in the inbox and the badge, and marks it read', async () => {
    const badge = (state: string) => page.getByRole('link', { name: `Notifications, ${state}` });
    await badge('none unread').waitFor();

    // The first backup completes; then Okta revokes the integration and the next one fails.
    expect((await runBackup(ctx, token, { connectionId })).status).toBe('completed');
    const revoked = await okta.call(
      'DELETE',
      `/integrations/api/v1/api-services/${org.integration.clientId}`,
    );
    expect(revoked.status).toBe(204);
    const failedId = await startBackup(ctx, token, { connectionId });
    expect(await waitForBackup(ctx, token, failedId)).toMatchObject({ status: 'failed' });

    // The header polls the unread count (every 2 s here): both notifications show without a reload.
    await badge('2 unread').waitFor({ timeout: 60_000 });
    const [refused] = (await inbox({ unreadOnly: true })).filter(
      (n) => n.type === 'connection.credentials_invalid',
    );
    expect(refused.title).toBe('Okta refused the credentials of Test org');

    await badge('2 unread').click();
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    const list = page.getByRole('list', { name: 'Notifications' });
    const item = list.getByRole('listitem').filter({ hasText: refused.title });
    await item.getByText('high', { exact: true }).waitFor();
    await item.getByText('unread', { exact: true }).waitFor();
    await list.getByRole('listitem').filter({ hasText: 'First backup of Test org completed' }).waitFor();
    await session.inspect(page, 'notifications');

    await item.getByRole('button', { name: `Mark read: ${refused.title}` }).click();
    await item.getByText('read', { exact: true }).waitFor();
    await badge('1 unread').waitFor();
    expect((await inbox()).find((n) => n.id === refused.id)?.read_at).toEqual(expect.any(String));
    expect((await inbox({ unreadOnly: true })).map((n) => n.type)).toEqual(['backup.completed']);

    // "Unread only", then all read: the badge has nothing left to count.
    await page.getByLabel('Unread only').check();
    expect(await list.getByRole('listitem').count()).toBe(1);
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByText('No unread notifications.').waitFor();
    await badge('none unread').waitFor();
    expect(await inbox({ unreadOnly: true })).toEqual([]);

    // The refusal's link leads to the connections, where the credentials are fixed.
    await page.getByLabel('Unread only').uncheck();
    await list
      .getByRole('listitem')
      .filter({ hasText: refused.title })
      .getByRole('link', { name: /^Open/ })
      .click();
    await page.waitForURL(/\/connections$/);
    await page.getByRole('heading', { name: 'Connections' }).waitFor();
    expectNoFindings();
  }, 150_000);

  it('saves the preferences changed in the console, as the API then answers them', async () => {
    await page.getByRole('link', { name: /^Notifications, / }).click();
    await page.getByRole('link', { name: 'Notification preferences' }).click();
    const table = page.getByRole('table', { name: 'Notification preferences' });
    await table.waitFor();
    // Completed backups are in the console after a connection's first only: neither on nor off.
    const completedInApp = table.getByRole('checkbox', { name: 'Backup completed: in the console' });
    expect(await completedInApp.getAttribute('data-indeterminate')).toBe('true');
    await table.getByText("After a connection's first backup only").waitFor();
    await session.inspect(page, 'notification-preferences');

    await completedInApp.click();
    await table.getByRole('checkbox', { name: 'Backup completed: by e-mail' }).check();
    await table.getByRole('checkbox', { name: 'Backup failed: by e-mail' }).uncheck();
    await table.getByRole('checkbox', { name: 'Scheduled backup missed: in the console' }).uncheck();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByText('Preferences saved').waitFor();

    const saved = await ctx.http.get('/api/notifications/preferences').set(bearer());
    expect(saved.status).toBe(200);
    const byType = Object.fromEntries(
      (saved.body.preferences as Array<Json & { type: string }>).map((p) => [p.type, p]),
    );
    expect(byType['backup.completed']).toEqual({
      type: 'backup.completed',
      in_app: true,
      email: true,
      default: false,
    });
    expect(byType['backup.failed']).toMatchObject({ in_app: true, email: false, default: false });
    expect(byType['schedule.missed']).toMatchObject({ in_app: false, email: true, default: false });
    // A type left alone keeps following the defaults.
    expect(byType['drift.detected']).toMatchObject({ in_app: true, email: 'critical', default: true });

    // Read back after a reload, the form shows what was saved.
    await page.reload();
    await table.waitFor();
    expect(await completedInApp.isChecked()).toBe(true);
    expect(await table.getByRole('checkbox', { name: 'Backup failed: by e-mail' }).isChecked()).toBe(false);
    expectNoFindings();
  }, 90_000);

  it('filters the audit trail by action and actor, pages with the cursor, and downloads the period', async () => {
    // 12 schedule changes by the owner (through its client), 2 by another admin of the team.
    const other = await otherAdmin();
    for (const hour of [1, 2]) await setSchedule(other.token, hour);
    for (let hour = 3; hour < 15; hour += 1) await setSchedule(token, hour);
    const ownerId = await userId(adminEmail);

    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Audit trail' })
      .click();
    const table = page.getByRole('table', { name: 'Audit events' });
    await table.waitFor();
    await page.getByRole('combobox', { name: 'Action' }).fill('schedule.updated');
    await page.getByRole('option', { name: 'schedule.updated' }).click();
    await page.getByRole('combobox', { name: 'Per page' }).click();
    await page.getByRole('option', { name: '10', exact: true }).click();
    // Both admins' changes; a row's actor narrows the trail to the owner.
    await table
      .getByRole('button', { name: `Only events by ${other.email}` })
      .first()
      .waitFor();
    await table
      .getByRole('button', { name: new RegExp(`^Only events by ${escape(adminEmail)}$`, 'i') })
      .first()
      .click();
    expect(await page.getByRole('textbox', { name: 'Actor (user id)' }).inputValue()).toBe(ownerId);

    const expected = await trail({ action: 'schedule.updated', actorId: ownerId, limit: 10 });
    expect(expected.events).toHaveLength(10);
    await waitForRows(expected.events);
    expect(await table.getByRole('button', { name: `Only events by ${other.email}` }).count()).toBe(0);
    await session.inspect(page, 'audit');

    // The next page is the API's, read with its cursor: the two oldest of the twelve, and no further page.
    const older = page.getByRole('button', { name: 'Older events' });
    await older.click();
    const second = await trail({
      action: 'schedule.updated',
      actorId: ownerId,
      limit: 10,
      after: expected.nextAfter!,
    });
    expect(second.events).toHaveLength(2);
    expect(second.nextAfter).toBeNull();
    await waitForRows(second.events);
    await page.getByText('Page 2', { exact: true }).waitFor();
    expect(await older.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Newer events' }).click();
    await waitForRows(expected.events);

    // The audit pack: a ZIP, saved under the API's name, holding the signed manifest and the trail.
    const packAnswer = page.waitForResponse((r) => r.url().endsWith('/api/export/audit-pack'));
    const packDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Audit pack (ZIP)' }).click();
    const answer = await packAnswer;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('application/zip');
    const download = await packDownload;
    expect(download.suggestedFilename()).toMatch(/^audit-pack-\d{8}-\d{8}\.zip$/);
    const zip = await readFile((await download.path())!);
    expect(zip.length).toBeGreaterThan(0);
    const files = zipEntries(zip);
    for (const name of [
      'audit-events.jsonl',
      'notifications.json',
      'MANIFEST.json',
      'MANIFEST.json.sig',
      'SHA256SUMS',
    ])
      expect(files.has(name)).toBe(true);
    const packed = files
      .get('audit-events.jsonl')!
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; actor: { id: string | null } });
    expect(packed.filter((e) => e.action === 'schedule.updated' && e.actor.id === ownerId)).toHaveLength(12);
    await page.getByText(`Saved ${download.suggestedFilename()}`).waitFor();

    // The activity report: a signed link to a PDF, downloaded by the browser with no token.
    await page.getByRole('button', { name: 'Activity report (PDF)' }).click();
    const link = page.getByRole('link', { name: 'Download the activity report' });
    await link.waitFor({ timeout: 60_000 });
    const href = (await link.getAttribute('href'))!;
    expect(href.startsWith(`${ctx.baseUrl}/api/export/reports/`)).toBe(true);
    const reportDownload = page.waitForEvent('download');
    await link.click();
    const pdf = await readFile((await (await reportDownload).path())!);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const signed = await fetch(href);
    expect(signed.status).toBe(200);
    expect(signed.headers.get('content-type')).toBe('application/pdf');
    expect((await signed.arrayBuffer()).byteLength).toBe(pdf.length);
    await page.getByRole('heading', { name: 'Download' }).evaluate((heading) => heading.scrollIntoView());
    await session.inspect(page, 'audit-downloads');
    expectNoFindings();
  }, 150_000);

  it('shows a viewer the bell and the inbox, but not the audit trail, whose API answers 403', async () => {
    const viewerEmail = newAddress('inbox-viewer');
    await ctx.http
      .post('/api/team/invitations')
      .set(bearer())
      .send({ email: viewerEmail, role: 'viewer' })
      .expect(201);
    const viewerContext = await session.newContext();
    const viewer = await session.signIn(viewerContext, viewerEmail);
    const sections = viewer.getByRole('navigation', { name: 'Sections' });
    await sections.getByRole('link', { name: 'Notifications' }).waitFor();
    await viewer.getByRole('link', { name: 'Notifications, none unread' }).waitFor();
    expect(await sections.getByRole('link', { name: 'Audit trail' }).count()).toBe(0);
    await viewer.goto(`${session.consoleUrl}/audit`);
    const alert = viewer.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('needs "export"');
    expect(await viewer.getByRole('button', { name: 'Audit pack (ZIP)' }).count()).toBe(0);
    await viewerContext.close();
    expectNoFindings();
  }, 60_000);

  async function setSchedule(bearerToken: string, hour: number): Promise<void> {
    const response = await ctx.http
      .patch(`/api/connections/${connectionId}/schedule`)
      .set('Authorization', `Bearer ${bearerToken}`)
      .send({ enabled: false, frequency: 'daily', hour, timezone: 'UTC' });
    expect(response.status).toBe(200);
  }

  /** Another admin of the team, signed up through an invitation, with a client acting for them. */
  async function otherAdmin(): Promise<{ email: string; token: string }> {
    const email = newAddress('other-admin').toLowerCase();
    await ctx.http.post('/api/team/invitations').set(bearer()).send({ email, role: 'admin' }).expect(201);
    const teams = ctx.app.get(TeamsService);
    const signedIn = (await teams.resolveSignIn(email))!;
    const client = await teams.createClient({ teamId, role: 'admin', createdBy: signedIn.userId });
    return { email, token: await ctx.token(client.clientId, client.clientSecret) };
  }

  async function userId(email: string): Promise<string> {
    const rows: Array<{ id: string }> = await ctx.app
      .get(DataSource)
      .query('SELECT id FROM users WHERE lower(email) = lower($1)', [email]);
    return rows[0].id;
  }

  async function trail(
    query: Json,
  ): Promise<{ events: Array<{ occurred_at: string }>; nextAfter: string | null }> {
    const response = await ctx.http.get('/api/audit-events').query(query).set(bearer());
    expect(response.status).toBe(200);
    return response.body as { events: Array<{ occurred_at: string }>; nextAfter: string | null };
  }

  /** Waits until the table's rows are `events`, in order (each row's `<time datetime>`). */
  async function waitForRows(events: Array<{ occurred_at: string }>): Promise<void> {
    const want = events.map((e) => new Date(e.occurred_at).toISOString().replace('.000Z', 'Z'));
    const times = page.getByRole('table', { name: 'Audit events' }).locator('tbody time');
    const deadline = Date.now() + 15_000;
    let shown: Array<string | null> = [];
    while (Date.now() < deadline) {
      shown = await times.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('datetime')));
      if (JSON.stringify(shown) === JSON.stringify(want)) break;
      await page.waitForTimeout(200);
    }
    expect(shown).toEqual(want);
  }
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
