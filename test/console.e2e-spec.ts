import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { screenshot } from './support/console-browser.js';
import { startConsoleSession, type ConsoleSession, type ScreenFindings } from './support/console-session.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { RESTORE_SCOPES } from './support/restore-helpers.js';
import { newAddress } from './support/sign-in-helpers.js';
import type { TestApp } from './support/test-app.js';
import { startTestIdp, type TestIdp } from './support/test-idp.js';
import { describeWithTools } from './support/tools.js';

type Json = Record<string, unknown>;

/**
 * The admin console in real Chromium (playwright-core driving Debian's chromium) against the
 * real app, real PostgreSQL and a simulated Okta org over HTTPS: sign-in with an e-mail code,
 * a connection, two backups around a change made in the org, the change read in compare, and a
 * selective restore that puts the group back. Every screen is checked with axe-core in both themes
 * and at 390 px wide.
 */
describeWithTools('chromium')('console (real Chromium, real app, Okta simulator over HTTPS)', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let idp: TestIdp;
  let session: ConsoleSession;
  let ctx: TestApp;
  let server: { url: string };
  let chromium: Browser;
  let findings: ScreenFindings;
  let adminEmail: string;
  let secondBackupId: string;
  const newContext = (): Promise<BrowserContext> => session.newContext();
  const signIn = (context: BrowserContext, email: string): Promise<Page> => session.signIn(context, email);
  const inspect = (page: Page, screen: string): Promise<void> => session.inspect(page, screen);

  beforeAll(async () => {
    org = await startTestOrg({ users: 20, groups: 4, apps: 2, seed: 47 }, RESTORE_SCOPES);
    okta = new SimulatorClient(org.sim);
    idp = await startTestIdp();
    session = await startConsoleSession({ ...org.env, ...idp.env, SELF_SERVICE_TEAMS: 'true' });
    ({ app: ctx, chromium, findings } = session);
    server = { url: session.consoleUrl };
  }, 180_000);

  beforeEach(() => session?.resetFindings());

  afterAll(async () => {
    await session?.close();
    await idp?.close();
    await okta?.close();
    await org?.sim.close();
  });

  it('takes a new admin from sign-in through a backup, a compare and a selective restore', async () => {
    adminEmail = newAddress('console-admin');
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.getByLabel('E-mail address').waitFor();
    await inspect(page, 'sign-in');
    await page.close();
    const admin = await signIn(context, adminEmail);
    await admin.getByRole('heading', { name: 'Connections' }).waitFor();

    // A connection: the API's field error appears beside the field, then the corrected one is saved.
    await admin.getByRole('button', { name: 'Add connection' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Org URL').fill('not a url');
    await dialog.getByLabel('Client ID').fill(org.integration.clientId);
    await dialog.getByLabel('Client secret').fill(org.integration.clientSecret);
    await dialog.getByLabel('Name (optional)').fill('Simulated org');
    await dialog.getByRole('button', { name: 'Create connection' }).click();
    await dialog.locator('[aria-invalid="true"]').first().waitFor();
    expect(await dialog.getByLabel('Org URL').getAttribute('aria-invalid')).toBe('true');
    await inspect(admin, 'connection-form');
    await dialog.getByLabel('Org URL').fill(org.sim.baseUrl);
    await dialog.getByRole('button', { name: 'Create connection' }).click();
    await admin.getByRole('cell', { name: /Simulated org/ }).waitFor();

    // Its schedule, switched on: the next three runs in the reader's zone, each with its UTC instant.
    await admin.getByRole('button', { name: 'Schedule' }).click();
    await dialog.getByText('Next runs: none (disabled)').waitFor();
    await dialog.getByLabel('Scheduled backups').check();
    await dialog.getByRole('button', { name: 'Save schedule' }).click();
    const nextRuns = dialog.getByRole('list', { name: /^Next runs/ });
    await nextRuns.waitFor();
    const times = nextRuns.locator('time');
    expect(await times.count()).toBe(3);
    const instants = await times.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('datetime')!));
    expect(instants.map((instant) => new Date(instant).toISOString())).toEqual(instants);
    await times.first().hover();
    await admin.getByRole('tooltip', { name: `${instants[0]} (UTC)` }).waitFor();
    await inspect(admin, 'schedule');
    await admin.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // The first backup, watched to 100 %.
    await admin.getByRole('button', { name: 'Run backup' }).click();
    await admin.getByText('100 %').waitFor({ timeout: 60_000 });
    await admin.getByText('completed', { exact: true }).first().waitFor();
    await inspect(admin, 'backup');
    await admin.getByRole('link', { name: 'Connections' }).click();
    await admin.getByRole('cell', { name: /Simulated org/ }).waitFor();
    await inspect(admin, 'connections');

    // Someone renames a group in the org; the second backup sees it.
    const group = org.sim.snapshot().group.find((g) => (g.data.type as string) === 'OKTA_GROUP')!;
    const profile = group.data.profile as Json;
    const renamed = await okta.call('PUT', `/api/v1/groups/${group.id}`, {
      json: { profile: { ...profile, name: 'Renamed by mistake' } },
    });
    expect(renamed.status).toBe(200);
    await admin.getByRole('button', { name: 'Run backup' }).click();
    await admin.getByText('100 %').waitFor({ timeout: 60_000 });
    secondBackupId = new URL(admin.url()).pathname.split('/').pop()!;
    await admin.getByRole('link', { name: 'Compare with the previous backup' }).click();

    // The change, with the severity the API gives it.
    const item = admin.getByTestId('change').filter({ hasText: 'Renamed by mistake' });
    await item.waitFor();
    const teamClient = await adminClient();
    const diff = await ctx.http
      .get(`/api/diff?toBackupId=${secondBackupId}&fromBackupId=${await previousBackupId(teamClient)}`)
      .set('Authorization', `Bearer ${teamClient}`);
    const expected = (
      diff.body.changes as Array<{
        resource: { id: string };
        severity: string;
        changedBy: { displayName: string } | null;
      }>
    ).find((change) => change.resource.id === group.id)!;
    await item.getByText(expected.severity, { exact: true }).waitFor();
    await item.getByText(`profile.name: ${String(profile.name)} → Renamed by mistake`).waitFor();
    // Who renamed it, as the org's System Log names them (docs/diff.md "Who changed it").
    const changedBy = expected.changedBy!;
    await item.getByTestId('changed-by').getByText(`by ${changedBy.displayName}`, { exact: false }).waitFor();
    await inspect(admin, 'compare');

    // The object's timeline, then back to restore it as it was.
    await item.getByRole('link', { name: /^Timeline/ }).click();
    await admin.getByRole('table', { name: 'Timeline' }).waitFor();
    await admin
      .getByRole('table', { name: 'Timeline' })
      .getByText(`by ${changedBy.displayName}`, { exact: false })
      .waitFor();
    await inspect(admin, 'timeline');
    await admin.goBack();
    await admin
      .getByTestId('change')
      .filter({ hasText: 'Renamed by mistake' })
      .getByRole('link', { name: /^Restore as it was/ })
      .click();
    await admin.getByRole('table', { name: 'Restore preview' }).waitFor({ timeout: 30_000 });
    const groupRow = admin
      .getByRole('table', { name: 'Restore preview' })
      .getByRole('row', { name: /^group\b/ });
    expect(await groupRow.getByRole('cell').nth(2).textContent()).toBe('1');
    await inspect(admin, 'restore-preview');

    // A full restore asks for the connection's name typed; Escape leaves it.
    await admin.locator('label', { hasText: 'Everything in the backup' }).click();
    await admin.getByRole('button', { name: 'Restore…' }).click();
    const confirm = admin.getByRole('dialog');
    expect(await confirm.getByRole('button', { name: 'Restore now' }).isDisabled()).toBe(true);
    await admin.keyboard.type('Simulated org');
    expect(await confirm.getByRole('button', { name: 'Restore now' }).isEnabled()).toBe(true);
    await inspect(admin, 'restore-confirm');
    await admin.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    await admin.locator('label', { hasText: 'Selected types and objects' }).click();
    await admin.getByRole('table', { name: 'Restore preview' }).waitFor();

    // The selective restore, confirmed from the keyboard alone.
    await admin.getByRole('button', { name: 'Restore…' }).focus();
    await admin.keyboard.press('Enter');
    await confirm.waitFor();
    await admin.keyboard.press('Enter');
    await admin.waitForURL(/\/restores\//);
    await admin.getByText('completed', { exact: true }).waitFor({ timeout: 60_000 });
    await admin.getByRole('link', { name: 'open the pre-restore backup' }).waitFor();
    const restored = admin
      .getByRole('table', { name: 'Restored items' })
      .getByRole('row')
      .filter({ hasText: 'update' });
    expect(await restored.first().textContent()).toContain('ok');
    await inspect(admin, 'restore-result');

    // The group has its name back, in the org and through the API.
    const live = await okta.call('GET', `/api/v1/groups/${group.id}`);
    expect((live.body as { profile: Json }).profile.name).toBe(profile.name);
    const restoreId = new URL(admin.url()).pathname.split('/').pop()!;
    const detail = await ctx.http
      .get(`/api/restore/${restoreId}`)
      .set('Authorization', `Bearer ${teamClient}`);
    expect(detail.status).toBe(200);
    expect(detail.body.restore.status).toBe('completed');
    expect(detail.body.restore.totals.update).toBeGreaterThanOrEqual(1);

    // The backups list with its stats.
    await admin.getByRole('link', { name: 'Backups' }).click();
    await admin.getByRole('table', { name: 'Backups' }).waitFor();
    await inspect(admin, 'backups');
    await context.close();
    expect(findings.violations).toEqual([]);
    expect(findings.narrow).toEqual([]);
    expect(findings.pageErrors).toEqual([]);
  }, 240_000);

  it("signs in through the API's identity provider and comes back to the console", async () => {
    idp.signInAs({ email: adminEmail });
    // The test identity provider's certificate comes from its own throwaway CA.
    const context = await chromium.newContext({
      viewport: { width: 1280, height: 800 },
      ignoreHTTPSErrors: true,
    });
    context.on('weberror', (error) => findings.pageErrors.push(error.error().message));
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    const button = page.getByRole('link', { name: 'Sign in with Test IdP' });
    expect(await button.getAttribute('href')).toBe(
      `${ctx.baseUrl}/sign-in/oidc?return_to=${encodeURIComponent(`${server.url}/`)}`,
    );
    await button.click();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    expect(new URL(page.url()).origin).toBe(server.url);
    await page.getByText(adminEmail.toLowerCase(), { exact: true }).waitFor();
    await context.close();
    expect(findings.pageErrors).toEqual([]);
  }, 60_000);

  it('shows a viewer no restore action, and a forced restore as the 403 it is', async () => {
    const teamClient = await adminClient();
    const viewerEmail = newAddress('console-viewer');
    const invited = await ctx.http
      .post('/api/team/invitations')
      .set('Authorization', `Bearer ${teamClient}`)
      .send({ email: viewerEmail, role: 'viewer' });
    expect(invited.status).toBe(201);
    const context = await newContext();
    const viewer = await signIn(context, viewerEmail);
    // A viewer lands on the backups, and sees neither connections nor restore among the sections.
    await viewer.getByRole('table', { name: 'Backups' }).waitFor();
    const sections = viewer.getByRole('navigation', { name: 'Sections' });
    expect(await sections.getByRole('link', { name: 'Connections' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Run backup' }).count()).toBe(0);
    expect(await sections.getByRole('link', { name: 'Restore' }).count()).toBe(0);

    await viewer.goto(`${server.url}/backups/${secondBackupId}`);
    await viewer.getByRole('table', { name: 'Objects per type' }).waitFor();
    expect(await viewer.getByRole('link', { name: 'Restore from this backup' }).count()).toBe(0);

    await viewer.goto(`${server.url}/restore?backupId=${secondBackupId}`);
    const alert = viewer.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Not allowed');
    expect(await alert.textContent()).toContain('needs "restore"');
    expect(await viewer.getByRole('button', { name: 'Restore…' }).count()).toBe(0);
    await inspect(viewer, 'viewer-restore-forbidden');

    const forced = await viewer.evaluate(
      async ({ apiUrl, backupId }) => {
        const response = await fetch(`${apiUrl}/api/restore`, {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            backupId,
            mode: 'full',
            prune: false,
            activateUsers: false,
            enforce: false,
          }),
        });
        return { status: response.status, body: (await response.json()) as { error: string } };
      },
      { apiUrl: ctx.baseUrl, backupId: secondBackupId },
    );
    expect(forced.status).toBe(403);
    expect(forced.body.error).toContain('restore');
    await context.close();
    expect(findings.violations).toEqual([]);
    expect(findings.narrow).toEqual([]);
    expect(findings.pageErrors).toEqual([]);
  }, 120_000);

  it('lets an operator, who may not list connections, start a backup from the backups screen', async () => {
    const teamClient = await adminClient();
    const operatorEmail = newAddress('console-operator');
    const invited = await ctx.http
      .post('/api/team/invitations')
      .set('Authorization', `Bearer ${teamClient}`)
      .send({ email: operatorEmail, role: 'operator' });
    expect(invited.status).toBe(201);
    const context = await newContext();
    const operator = await signIn(context, operatorEmail);
    await operator.getByRole('table', { name: 'Backups' }).waitFor();
    const sections = operator.getByRole('navigation', { name: 'Sections' });
    expect(await sections.getByRole('link', { name: 'Connections' }).count()).toBe(0);

    // The connection comes from those the team's backups name.
    const run = operator.getByRole('button', { name: 'Run backup' });
    expect(await run.isDisabled()).toBe(true);
    await operator.getByRole('combobox', { name: 'Connection to back up' }).click();
    await operator.getByRole('option', { name: 'Simulated org' }).click();
    await inspect(operator, 'operator-run-backup');
    await run.click();
    await operator.waitForURL(/\/backups\/[0-9a-f-]{36}$/);
    await operator.getByText('100 %').waitFor({ timeout: 60_000 });
    const backupId = new URL(operator.url()).pathname.split('/').pop()!;
    const started = await ctx.http
      .get(`/api/backup/${backupId}`)
      .set('Authorization', `Bearer ${teamClient}`);
    expect(started.status).toBe(200);
    expect(started.body.backup.connection.org_name).toBe('Simulated org');
    await context.close();
    expect(findings.violations).toEqual([]);
    expect(findings.narrow).toEqual([]);
    expect(findings.pageErrors).toEqual([]);
  }, 120_000);

  it('switches to the dark theme from the header and keeps it across a reload', async () => {
    const context = await newContext();
    const admin = await signIn(context, adminEmail);
    const scheme = () => admin.locator('html').getAttribute('data-mantine-color-scheme');
    // Chromium reports a light system scheme: the console starts light.
    expect(await scheme()).toBe('light');
    const toggle = admin.getByRole('button', { name: 'Dark theme' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    await admin.waitForSelector('html[data-mantine-color-scheme="dark"]', { state: 'attached' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');

    await admin.reload();
    await admin.getByRole('navigation', { name: 'Sections' }).waitFor();
    expect(await scheme()).toBe('dark');
    expect(await admin.getByRole('button', { name: 'Dark theme' }).getAttribute('aria-pressed')).toBe('true');
    await admin.getByRole('cell', { name: /Simulated org/ }).waitFor();
    await screenshot(admin, 'dark-theme');

    // Switched back, it stays light against the same light system scheme after another reload.
    await admin.getByRole('button', { name: 'Dark theme' }).click();
    await admin.waitForSelector('html[data-mantine-color-scheme="light"]', { state: 'attached' });
    await admin.reload();
    await admin.getByRole('navigation', { name: 'Sections' }).waitFor();
    expect(await scheme()).toBe('light');
    await context.close();
    expect(findings.pageErrors).toEqual([]);
  }, 60_000);

  it('at 390 px opens the navigation from the burger button and goes to the chosen section', async () => {
    const context = await newContext();
    const admin = await signIn(context, adminEmail);
    await admin.setViewportSize({ width: 390, height: 844 });
    // Folded, the navigation sits left of the viewport (Mantine's AppShell slides it out).
    const navigation = `document.querySelector('nav[aria-label="Sections"]').getBoundingClientRect()`;
    const folded = () => admin.waitForFunction(`${navigation}.right <= 0`);
    await folded();
    const burger = admin.getByRole('button', { name: 'Open navigation' });
    expect(await burger.getAttribute('aria-expanded')).toBe('false');
    await burger.click();
    await admin.waitForFunction(`${navigation}.left >= 0`);
    expect(await burger.getAttribute('aria-expanded')).toBe('true');
    // Every control of the header and the opened navigation lies within the 390 px.
    const beyond = await admin.evaluate(
      `[...document.querySelectorAll('header button, header input, nav a, nav button')].filter((e) => e.getBoundingClientRect().right > innerWidth).length`,
    );
    expect(beyond).toBe(0);
    const sectionsNav = admin.getByRole('navigation', { name: 'Sections' });
    await sectionsNav.getByRole('button', { name: 'Dark theme' }).waitFor();
    await sectionsNav.getByRole('button', { name: 'Sign out' }).waitFor();
    await screenshot(admin, 'navigation-narrow');

    await sectionsNav.getByRole('link', { name: 'Backups' }).click();
    await admin.waitForURL(/\/backups$/);
    await admin.getByRole('heading', { name: 'Backups' }).waitFor();
    // Once a section is chosen the navigation folds away again, leaving the screen its width.
    await folded();
    expect(await burger.getAttribute('aria-expanded')).toBe('false');
    await context.close();
    expect(findings.pageErrors).toEqual([]);
  }, 60_000);

  /** A bearer token of an admin client in the signed-in admin's team, to check through the API. */
  let token: string | undefined;
  async function adminClient(): Promise<string> {
    if (token) return token;
    const rows: Array<{ team_id: string }> = await ctx.app
      .get(DataSource)
      .query(
        'SELECT team_id FROM team_members m JOIN users u ON u.id = m.user_id WHERE lower(u.email) = lower($1)',
        [adminEmail],
      );
    token = (await ctx.newClient({ role: 'admin', teamId: rows[0].team_id })).token;
    return token;
  }

  async function previousBackupId(bearer: string): Promise<string> {
    const list = await ctx.http
      .get('/api/backup/list?status=completed')
      .set('Authorization', `Bearer ${bearer}`);
    return (list.body.backups as Array<{ id: string }>).find((b) => b.id !== secondBackupId)!.id;
  }
});
