import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { providerDescriptor } from '@libs/providers/registry.js';
import { selfSignedCertificate } from '@libs/simulators/kit/tls/certificates.js';
import { exportFolder } from '@libs/simulators/workflows/index.js';
import { startConsoleSession, type ConsoleSession } from './support/console-session.js';
import { startTestTenant, type TestTenant } from './support/entra-tenant.js';
import { newAddress } from './support/sign-in-helpers.js';
import type { TestApp } from './support/test-app.js';
import { describeWithTools } from './support/tools.js';
import {
  startWorkflowsOrg,
  type TestWorkflowsOrg,
  workflowsConnectionBody,
} from './support/workflows-org.js';
import { zipEntries } from './support/zip-entries.js';

const WORKFLOWS_SCOPES = ['okta.workflows.invoke.manage', 'okta.logs.read'];
/** A flow name that would run script if the runbook's Markdown let HTML through. */
const HOSTILE_NAME = '<img src=x onerror="window.__runbookXss=1"> Offboard';

/**
 * The console's restore drills, Okta Workflows (upload, re-import package and its runbook), the
 * Entra ID connection form (a PEM certificate read in the browser, missing Graph permissions
 * listed) and the public newsletter pages, in real Chromium against the real app, PostgreSQL,
 * the Okta Workflows simulator and the Graph simulator over HTTPS. Each screen is checked with
 * axe-core in both themes and at 390 px.
 */
describeWithTools('chromium')(
  'console: drills, Workflows, Entra ID, newsletter (real Chromium, real app)',
  () => {
    let workflowsOrg: TestWorkflowsOrg;
    let tenant: TestTenant;
    let session: ConsoleSession;
    let ctx: TestApp;
    let scratch: string;
    let context: BrowserContext;
    let admin: Page;
    let adminEmail: string;
    let teamToken: string;
    let workflowsConnectionId: string;
    let uploadedBackupId: string;

    const auth = () => ({ Authorization: `Bearer ${teamToken}` });
    const expectClean = () => {
      expect(session.findings.violations).toEqual([]);
      expect(session.findings.narrow).toEqual([]);
      expect(session.findings.pageErrors).toEqual([]);
    };
    const section = (name: string) =>
      admin.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();

    beforeAll(async () => {
      workflowsOrg = await startWorkflowsOrg({ flows: 4, tables: 1, rows: 2, seed: 71 }, WORKFLOWS_SCOPES);
      tenant = await startTestTenant(
        { users: 4, groups: 2, seed: 5 },
        providerDescriptor('entra_id')!.grants(),
      );
      scratch = mkdtempSync(join(tmpdir(), 'console-drills-etc-'));
      // Both simulators' CAs in one bundle: the service trusts one PROVIDER_CA_FILE.
      const caBundle = join(scratch, 'providers-ca.pem');
      writeFileSync(
        caBundle,
        [workflowsOrg.sim.caCertPath, tenant.sim.caCertPath]
          .map((path) => readFileSync(path, 'utf8'))
          .join('\n'),
      );
      session = await startConsoleSession({
        PROVIDER_ALLOWED_HOSTS: '127.0.0.1',
        PROVIDER_CA_FILE: caBundle,
        SELF_SERVICE_TEAMS: 'true',
      });
      ctx = session.app;
      adminEmail = newAddress('console-drills');
      context = await session.newContext();
      admin = await session.signIn(context, adminEmail);
      // The admin's team, for arranging through the API what a test is not about.
      const rows: Array<{ team_id: string }> = await ctx.app
        .get(DataSource)
        .query(
          'SELECT team_id FROM team_members m JOIN users u ON u.id = m.user_id WHERE lower(u.email) = lower($1)',
          [adminEmail],
        );
      teamToken = (await ctx.newClient({ role: 'admin', teamId: rows[0].team_id })).token;
    }, 240_000);

    beforeEach(() => session?.resetFindings());

    afterAll(async () => {
      await context?.close();
      await session?.close();
      await workflowsOrg?.sim.close();
      await tenant?.sim.close();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    it('creates an Entra ID connection from a PEM certificate file, and lists the Graph permissions a refused one lacks', async () => {
      const registered = await selfSignedCertificate('idp-backup console');
      const certified = tenant.sim.registerApp(
        providerDescriptor('entra_id')!.grants(),
        registered.certificatePem,
      );
      const pem = join(scratch, 'idp-backup.pem');
      writeFileSync(pem, `${registered.certificatePem}${registered.privateKeyPem}`);

      // An app registration without two of the permissions a backup needs: the form lists both.
      const lacking = ['Policy.Read.AuthenticationMethod', 'OrganizationalBranding.Read.All'];
      const partial = tenant.sim.registerApp(
        providerDescriptor('entra_id')!
          .grants()
          .filter((role) => !lacking.includes(role)),
      );
      // The form's screens are checked before the team has a connection: the Connections
      // table behind the dialog is not this file's screen.
      await section('Connections');
      await admin.getByRole('button', { name: 'Add connection' }).click();
      let dialog = admin.getByRole('dialog');
      await dialog.getByText('Entra ID', { exact: true }).click();
      await dialog.getByLabel('Tenant ID').fill(tenant.sim.tenantId);
      await dialog.getByLabel('Client ID').fill(partial.clientId);
      await dialog.getByLabel('Client secret', { exact: true }).fill(partial.clientSecret);
      await dialog.getByLabel('Microsoft Graph URL (optional)').fill(tenant.sim.baseUrl);
      await dialog.getByRole('button', { name: 'Create connection' }).click();
      const missing = dialog.getByRole('list', {
        name: /^Grant these Microsoft Graph application permissions/,
      });
      await missing.waitFor({ timeout: 30_000 });
      await missing.scrollIntoViewIfNeeded();
      const named = await missing.getByRole('listitem').allTextContents();
      expect(named.sort()).toEqual(
        providerDescriptor('entra_id')!
          .grants()
          .filter((role) => lacking.includes(role))
          .sort(),
      );
      await inspect('connection-form-entra-refused');
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // Then one with the certificate, read from its PEM file by the browser.
      await admin.getByRole('button', { name: 'Add connection' }).click();
      dialog = admin.getByRole('dialog');
      await dialog.getByText('Entra ID', { exact: true }).click();
      await dialog.getByLabel('Name (optional)').fill('Entra by certificate');
      await dialog.getByLabel('Tenant ID').fill(tenant.sim.tenantId);
      await dialog.getByLabel('Client ID').fill(certified.clientId);
      await dialog.getByText('Certificate', { exact: true }).click();
      const chooser = admin.waitForEvent('filechooser');
      await dialog.getByRole('button', { name: /^Certificate and private key/ }).click();
      await (await chooser).setFiles(pem);
      await dialog.getByText('idp-backup.pem read;').waitFor();
      await dialog.getByLabel('Microsoft Graph URL (optional)').fill(tenant.sim.baseUrl);
      await inspect('connection-form-entra');
      await dialog.getByRole('button', { name: 'Create connection' }).click();
      await admin.getByRole('cell', { name: /Entra by certificate/ }).waitFor({ timeout: 30_000 });
      const listed = await ctx.http.get('/api/connections').set(auth());
      const entra = (listed.body.connections as Array<Record<string, unknown>>).find(
        (connection) => connection.org_name === 'Entra by certificate',
      );
      expect(entra).toMatchObject({ provider: 'entra_id', client_id: certified.clientId });
      expect(JSON.stringify(listed.body)).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE/);

      expectClean();
    }, 120_000);

    it('uploads a .folder export that becomes a backup in the list, and reads the package runbook safely', async () => {
      // Arranged through the API: the team's connection to the Workflows org.
      const created = await ctx.http
        .post('/api/connections/create')
        .set(auth())
        .send(workflowsConnectionBody(workflowsOrg));
      expect(created.status).toBe(201);
      workflowsConnectionId = created.body.connection.id as string;
      const data = workflowsOrg.workflows.data;
      [...data.flows.values()][0].name = HOSTILE_NAME;
      const file = join(scratch, 'Identity-automation.folder');
      writeFileSync(file, JSON.stringify(exportFolder(data, Date.now())));

      await section('Okta Workflows');
      await admin.getByRole('heading', { name: 'Okta Workflows', level: 1 }).waitFor();
      await admin.getByRole('combobox', { name: 'Workflows connection' }).click();
      await admin.getByRole('option', { name: 'Workflows test org' }).click();
      const chooser = admin.waitForEvent('filechooser');
      await admin.getByRole('button', { name: 'Export file (.folder or .flow)' }).click();
      await (await chooser).setFiles(file);
      await admin.getByRole('button', { name: 'Upload', exact: true }).click();
      const stored = admin.getByRole('status').filter({ hasText: 'Stored as a backup' });
      await stored.waitFor();
      uploadedBackupId = (await stored.getByRole('link').getAttribute('href'))!.split('/').pop()!;
      await inspect('workflows');

      // The API holds it as a completed backup with every flow, table, folder and placeholder.
      const backup = await ctx.http.get(`/api/backup/${uploadedBackupId}`).set(auth());
      expect(backup.status).toBe(200);
      expect(backup.body.backup.status).toBe('completed');
      expect(backup.body.backup.resource_counts).toEqual({
        workflow_folder: data.folders.size,
        workflow_connection: data.connections.size,
        workflow_table: data.tables.size,
        workflow: data.flows.size,
      });
      // And the backups list shows it.
      await section('Backups');
      const row = admin
        .getByRole('table', { name: 'Backups' })
        .getByRole('row')
        .filter({ has: admin.locator(`a[href="/backups/${uploadedBackupId}"]`) });
      await row.getByRole('cell', { name: 'Workflows test org' }).waitFor();

      // A re-import package of it: the download is the ZIP, and its runbook is on the page.
      await section('Okta Workflows');
      await admin.getByRole('combobox', { name: 'Workflows connection' }).click();
      await admin.getByRole('option', { name: 'Workflows test org' }).click();
      await admin
        .getByRole('button', { name: /^Build package of the backup of / })
        .first()
        .click();
      await admin.getByRole('heading', { name: 'Re-import runbook' }).waitFor({ timeout: 30_000 });
      const runbook = admin
        .getByRole('heading', { name: 'Runbook', level: 2 })
        .locator('xpath=following-sibling::*[1]');
      expect(await runbook.textContent()).toContain(HOSTILE_NAME);
      expect(await runbook.locator('img').count()).toBe(0);
      expect(await admin.evaluate('window.__runbookXss')).toBeUndefined();
      const download = admin.waitForEvent('download');
      await admin.getByRole('link', { name: 'Download the package (ZIP)' }).click();
      const zip = readFileSync((await (await download).path())!);
      const entries = zipEntries(zip);
      expect([...entries.keys()]).toEqual(expect.arrayContaining(['restore.folder', 'RUNBOOK.md']));
      expect(await runbook.textContent()).toContain('Import the folder');
      await inspect('workflows-package');
      expectClean();
    }, 120_000);

    it('runs a restore drill on a backup and shows its result; the weekly switch is saved and read back', async () => {
      await section('Drills');
      await admin.getByRole('heading', { name: 'Restore drills', level: 1 }).waitFor();
      await admin.getByRole('combobox', { name: 'Backup to verify' }).click();
      await admin
        .getByRole('option', { name: /^Workflows test org, / })
        .first()
        .click();
      await admin.getByRole('button', { name: 'Run drill' }).click();
      await admin.waitForURL(/\/drills\/[0-9a-f-]{36}$/);
      const drillId = new URL(admin.url()).pathname.split('/').pop()!;
      await admin.getByText('passed', { exact: true }).waitFor({ timeout: 60_000 });
      const drill = (await ctx.http.get(`/api/restore-drills/${drillId}`).set(auth())).body.drill;
      expect(drill).toMatchObject({ outcome: 'passed', backup_id: uploadedBackupId });
      const result = admin.getByRole('region', { name: 'What was read' });
      await result.getByText(drill.result.records.toLocaleString('en'), { exact: true }).waitFor();
      await result.getByText(drill.result.parts.toLocaleString('en'), { exact: true }).waitFor();
      // The start shows in the reader's zone; keyboard focus (as hover) shows its UTC instant.
      await admin.locator('time').first().focus();
      // Reached by the keyboard (Tab), not by a script, as focus-visible asks.
      await admin.keyboard.press('Shift+Tab');
      await admin.keyboard.press('Tab');
      const utc = new Date(drill.started_at ?? drill.created_at).toISOString();
      expect(await admin.getByRole('tooltip').innerText()).toBe(`${utc} (UTC)`);
      await inspect('drill');

      // The weekly verification of the Workflows connection: on, saved, and read back after a reload.
      await section('Drills');
      const chooseConnection = async () => {
        await admin.getByRole('combobox', { name: 'Connection', exact: true }).click();
        await admin.getByRole('option', { name: 'Workflows test org' }).click();
      };
      await chooseConnection();
      const toggle = admin.getByRole('switch', { name: 'Verify the latest backup every week' });
      await toggle.waitFor();
      expect(await toggle.isChecked()).toBe(false);
      await toggle.click();
      await admin.getByText('Weekly verification on for Workflows test org').waitFor();
      const schedule = await ctx.http.get(`/api/connections/${workflowsConnectionId}/schedule`).set(auth());
      expect(schedule.body.verify_weekly).toBe(true);
      await admin.reload();
      await chooseConnection();
      await toggle.waitFor();
      expect(await toggle.isChecked()).toBe(true);
      await inspect('drills');
      expectClean();
    }, 120_000);

    it('subscribes to the newsletter, confirms with the link of the mail, and unsubscribes', async () => {
      const email = newAddress('newsletter').toLowerCase();
      const visitor = await (await session.newContext()).newPage();
      await visitor.goto(`${session.consoleUrl}/newsletter`);
      await visitor.getByLabel('E-mail address').fill(email);
      await inspect('newsletter', visitor);
      await visitor.getByRole('button', { name: 'Subscribe' }).click();
      await visitor.getByRole('status').filter({ hasText: 'Check your inbox' }).waitFor();

      const mail = await confirmationMail(email);
      const token = (path: string) => new RegExp(`${path}\\?token=([\\w-]+)`).exec(mail)![1];
      const subscriber = async () =>
        (
          await ctx.app
            .get(DataSource)
            .query('SELECT confirmed_at, unsubscribed_at FROM newsletter_subscribers WHERE email = $1', [
              email,
            ])
        )[0] as { confirmed_at: Date | null; unsubscribed_at: Date | null };

      // Opening the confirm page changes nothing; its button confirms.
      await visitor.goto(
        `${session.consoleUrl}/newsletter/confirm?token=${token('/api/newsletter/confirm')}`,
      );
      await visitor.getByRole('button', { name: 'Confirm my subscription' }).waitFor();
      expect((await subscriber()).confirmed_at).toBeNull();
      await inspect('newsletter-confirm', visitor);
      await visitor.getByRole('button', { name: 'Confirm my subscription' }).click();
      await visitor.getByRole('heading', { name: 'Subscription confirmed', level: 1 }).waitFor();
      expect((await subscriber()).confirmed_at).not.toBeNull();

      await visitor.goto(
        `${session.consoleUrl}/newsletter/unsubscribe?token=${token('/api/newsletter/unsubscribe')}`,
      );
      await visitor.getByRole('button', { name: 'Unsubscribe' }).waitFor();
      expect((await subscriber()).unsubscribed_at).toBeNull();
      await inspect('newsletter-unsubscribe', visitor);
      await visitor.getByRole('button', { name: 'Unsubscribe' }).click();
      await visitor.getByRole('heading', { name: 'Unsubscribed', level: 1 }).waitFor();
      expect((await subscriber()).unsubscribed_at).not.toBeNull();
      await visitor.context().close();
      expectClean();
    }, 90_000);

    function inspect(screen: string, page: Page = admin): Promise<void> {
      return session.inspect(page, screen);
    }

    /** The newsletter confirmation mail to `email` from the outbox (the job sends it after the answer). */
    async function confirmationMail(email: string): Promise<string> {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const rows: Array<{ body: string }> = await ctx.app
          .get(DataSource)
          .query(
            "SELECT body FROM outbox_emails WHERE lower(recipient) = $1 AND body LIKE '%/api/newsletter/confirm?token=%' ORDER BY created_at DESC LIMIT 1",
            [email],
          );
        if (rows[0]) return rows[0].body;
        if (Date.now() > deadline) throw new Error(`no newsletter confirmation mail to ${email}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  },
);
