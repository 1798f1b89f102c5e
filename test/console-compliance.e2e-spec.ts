import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startConsoleSession, type ConsoleSession } from './support/console-session.js';
import { FIXTURES_DIR, HAVE_FIXTURES, startTestOrg, type TestOrg } from './support/okta-org.js';
import { newAddress } from './support/sign-in-helpers.js';
import type { TestClient } from './support/test-app.js';
import { describeWithTools } from './support/tools.js';

type Json = Record<string, unknown>;
type PasswordSettings = { password: { complexity: { minLength: number } } };

/** PCI DSS v4.0.1 8.3.6's minimum password length (libs/compliance/frameworks/pci-dss.ts). */
const PCI_MIN_LENGTH = 12;

/** The text of a PDF file as poppler's pdftotext reads it, layout kept (table rows stay on one line). */
const pdfText = (path: string) => execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });

/**
 * docs/console.md "Compliance" and "Scores" in real Chromium against the real app and the Okta
 * simulator seeded with the most recorded real org of ../shared/fixtures/okta/vcr (its password
 * policies ask for fewer than 12 characters): an auditor checks its backup against PCI DSS, reads
 * the failed 8.3.6 control with the policies named, downloads the PDF through its signed URL and
 * finds the control in it; then reads the five resilience factors and the drift a weakened
 * password policy makes (the drift job runs every second here). Every screen: axe in both themes
 * and 390 px.
 */
(HAVE_FIXTURES ? describeWithTools('chromium', 'pdftotext') : describe.skip)(
  'console: compliance and scores (real Chromium, recorded real org)',
  () => {
    let org: TestOrg;
    let okta: SimulatorClient;
    let session: ConsoleSession;
    let admin: TestClient;
    let connectionId: string;
    let backup: BackupDto;
    let page: Page;

    beforeAll(async () => {
      org = await startTestOrg({ fixturesDir: FIXTURES_DIR });
      okta = new SimulatorClient(org.sim);
      session = await startConsoleSession({ ...org.env, DRIFT_CHECK_INTERVAL_SECONDS: '1' });
      const ctx = session.app;
      admin = await ctx.newClient({ role: 'admin' });
      connectionId = await createConnection(ctx, admin.token, {
        baseUrl: org.sim.baseUrl,
        ...org.integration,
      });
      backup = await runBackup(ctx, admin.token, { connectionId });
      expect(backup.status).toBe('completed');
      // An auditor of the team (compliance, export, view backups) signs in to the console.
      const auditorEmail = newAddress('console-auditor');
      const invited = await ctx.http
        .post('/api/team/invitations')
        .set('Authorization', `Bearer ${admin.token}`)
        .send({ email: auditorEmail, role: 'auditor' });
      expect(invited.status).toBe(201);
      page = await session.signIn(await session.newContext(), auditorEmail);
    }, 240_000);

    beforeEach(() => session?.resetFindings());

    afterAll(async () => {
      await session?.close();
      await okta?.agent.close();
      await org?.sim.close();
    });

    /** The org's active password policies below PCI DSS 8.3.6's length, as the backup holds them. */
    const shortPasswordPolicies = () =>
      org.sim
        .snapshot()
        .policy.filter(
          (p) =>
            p.data.type === 'PASSWORD' &&
            p.data.status === 'ACTIVE' &&
            (p.data.settings as PasswordSettings).password.complexity.minLength < PCI_MIN_LENGTH,
        )
        .map((p) => ({
          name: p.data.name as string,
          minLength: (p.data.settings as PasswordSettings).password.complexity.minLength,
        }));

    it('shows the failed PCI DSS 8.3.6 check with its evidence, the run history, and a PDF that names it', async () => {
      const short = shortPasswordPolicies();
      expect(short.length).toBeGreaterThan(0);

      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Compliance' })
        .click();
      await page.getByRole('heading', { name: 'Compliance', level: 1 }).waitFor();
      await page.getByRole('combobox', { name: 'Connection', exact: true }).click();
      await page.getByRole('option', { name: 'Test org' }).click();
      await page.getByRole('combobox', { name: 'Backup', exact: true }).click();
      await page.getByRole('option').first().click();
      await page.getByRole('combobox', { name: 'Framework', exact: true }).click();
      await page.getByRole('option', { name: 'PCI DSS' }).click();
      await page.getByRole('button', { name: 'Run check' }).click();

      // Failed controls come first; 8.3.6's length check names every short policy with its length.
      const findings = page.getByTestId('finding');
      await findings.first().waitFor();
      await expect(findings.first().getByText('fail', { exact: true }).count()).resolves.toBe(1);
      const minLength = findings.filter({ hasText: 'okta.password.min_length' });
      await expect(minLength.count()).resolves.toBe(1);
      const text = await minLength.innerText();
      expect(text).toContain('8.3.6');
      expect(text).toContain('Passwords are at least 12 characters long.');
      expect(text).toMatch(/Expected: .*12/);
      expect(text).toContain('/settings/password/complexity/minLength');
      await expect(minLength.getByText('fail', { exact: true }).count()).resolves.toBe(1);
      const rows = minLength.getByRole('row');
      for (const policy of short)
        await expect(
          rows
            .filter({ hasText: policy.name })
            .filter({ hasText: String(policy.minLength) })
            .count(),
        ).resolves.toBeGreaterThan(0);
      const score = (await page.getByTestId('compliance-score').innerText()).trim();
      expect(score).toMatch(/^\d+ \/ 100$/);
      await page.getByText('PCI DSS v4.0.1').waitFor();

      // The run is in the history, with its score.
      const history = page.getByRole('table', { name: 'Run history' });
      await history
        .getByRole('row')
        .filter({ hasText: 'PCI DSS' })
        .filter({ hasText: score.split(' ')[0] })
        .first()
        .waitFor();
      await page.evaluate(() =>
        (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
      );
      await session.inspect(page, 'compliance');
      await minLength.scrollIntoViewIfNeeded();
      await session.inspect(page, 'compliance-finding');

      // The PDF, downloaded through its signed URL, holds the failed control.
      await page.getByRole('button', { name: 'Create PDF report' }).click();
      const link = page.getByRole('link', { name: 'Download PDF report' });
      await link.waitFor({ timeout: 60_000 });
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toMatch(/\.pdf$/);
      const pdf = pdfText(await download.path());
      expect(pdf).toMatch(/8\.3\.6\s+fail\s+high/);
      expect(pdf).toContain('Test org');
      expect(pdf).toContain(score);

      expect(session.findings.violations).toEqual([]);
      expect(session.findings.narrow).toEqual([]);
      expect(session.findings.pageErrors).toEqual([]);
    }, 180_000);

    it('shows the five resilience factors, and the drift a weakened password policy makes since the backup', async () => {
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Scores' }).click();
      const factors = page.getByRole('table', { name: 'Resilience' }).getByTestId('factor');
      await factors.first().waitFor();
      expect(await factors.locator('td:first-child').allInnerTexts()).toEqual([
        'Recency',
        'Success rate',
        'Coverage',
        'Tested restores',
        'Protection',
      ]);
      const api = await session.app.http
        .get(`/api/scores/resilience?connectionId=${connectionId}`)
        .set('Authorization', `Bearer ${admin.token}`);
      for (const factor of api.body.factors as Array<{ notes: string }>)
        await factors.filter({ hasText: factor.notes }).waitFor();
      for (const recommendation of api.body.recommendations as string[])
        await page.getByRole('listitem').filter({ hasText: recommendation }).waitFor();
      await page.getByTestId('resilience-score').getByText(`${api.body.score} / 100`).waitFor();

      // The drift job's first reading after the backup: nothing changed.
      const readiness = page.getByRole('table', { name: 'Restore readiness' });
      const row = readiness.getByRole('row').filter({ hasText: 'Test org' });
      await row.getByText('No change').waitFor({ timeout: 60_000 });

      // Someone weakens a password policy in the org: critical drift, lower readiness.
      const before = Number((await row.locator('td').nth(1).innerText()).trim());
      const policy = org.sim
        .snapshot()
        .policy.find((p) => p.data.type === 'PASSWORD' && p.data.status === 'ACTIVE')!;
      const settings = structuredClone(policy.data.settings) as PasswordSettings;
      settings.password.complexity.minLength = 6;
      const { _links: _ignored, ...body } = policy.data as Json;
      expect(
        (await okta.call('PUT', `/api/v1/policies/${policy.id}`, { json: { ...body, settings } })).status,
      ).toBe(200);
      await row.getByText('1 change').waitFor({ timeout: 60_000 });
      await row.getByText('1 critical').waitFor();
      expect(Number((await row.locator('td').nth(1).innerText()).trim())).toBeLessThan(before);
      await session.inspect(page, 'scores');

      expect(session.findings.violations).toEqual([]);
      expect(session.findings.narrow).toEqual([]);
      expect(session.findings.pageErrors).toEqual([]);
    }, 120_000);
  },
);
