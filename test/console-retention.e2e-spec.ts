import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { startConsoleSession, type ConsoleSession } from './support/console-session.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { newAddress } from './support/sign-in-helpers.js';
import { describeWithTools } from './support/tools.js';

/**
 * The schedule screen's retention fields (docs/backups.md "Retention") in real Chromium against
 * the real app on the team plan (90 days, 90 backups): the plan's bound shown, a value over it
 * refused by the API with its 402 shown on the field and in the alert, then a value within it saved.
 */
describeWithTools('chromium')('console: a connection retention (real Chromium, real app)', () => {
  let org: TestOrg;
  let session: ConsoleSession;

  beforeAll(async () => {
    org = await startTestOrg({ users: 4, groups: 2, apps: 1, seed: 53 });
    session = await startConsoleSession({ ...org.env, SELF_SERVICE_TEAMS: 'true', DEFAULT_PLAN: 'team' });
  }, 180_000);

  beforeEach(() => session?.resetFindings());

  afterAll(async () => {
    await session?.close();
    await org?.sim.close();
  });

  it("shows the plan's bound, the API's refusal above it, and saves a value within it", async () => {
    const page = await session.signIn(await session.newContext(), newAddress('console-retention'));
    await page.getByRole('heading', { name: 'Connections' }).waitFor();
    await page.getByRole('button', { name: 'Add connection' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Org URL').fill(org.sim.baseUrl);
    await dialog.getByLabel('Client ID').fill(org.integration.clientId);
    await dialog.getByLabel('Client secret').fill(org.integration.clientSecret);
    await dialog.getByLabel('Name (optional)').fill('Retention org');
    await dialog.getByRole('button', { name: 'Create connection' }).click();
    await page.getByRole('cell', { name: /Retention org/ }).waitFor();

    await page.getByRole('button', { name: 'Schedule' }).click();
    const days = dialog.getByLabel('Keep backups for (days)');
    const count = dialog.getByLabel('Always keep the newest (backups)');
    await days.waitFor();
    expect(await days.inputValue()).toBe('');
    expect(await days.getAttribute('placeholder')).toBe("Plan's default: 90 days");
    await dialog.getByText("Empty for the plan's default; at most 90.").first().waitFor();

    await days.fill('120');
    await dialog.getByRole('button', { name: 'Save schedule' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Limit: retention_days on the team plan.');
    expect(await days.getAttribute('aria-invalid')).toBe('true');
    await session.inspect(page, 'schedule-retention-refused');

    await days.fill('30');
    await count.fill('5');
    await dialog.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByText('Schedule saved').waitFor();
    expect(await alert.count()).toBe(0);
    const [saved] = (await session.app.app
      .get(DataSource)
      .query('SELECT retention_days, retention_count FROM schedules')) as Array<Record<string, number>>;
    expect(saved).toEqual({ retention_days: 30, retention_count: 5 });
    expect(session.findings.violations).toEqual([]);
    expect(session.findings.narrow).toEqual([]);
    expect(session.findings.pageErrors).toEqual([]);
  }, 180_000);
});
