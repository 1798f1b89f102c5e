import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { freePort } from '@app/platform/bootstrap/free-port.js';
import { startConsoleServer } from '@console/server/console-server.js';
import {
  buildConsoleIfStale,
  launchChromium,
  screenshot,
  seriousAxeViolations,
} from './support/console-browser.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { latestCode, newAddress } from './support/sign-in-helpers.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { describeWithTools } from './support/tools.js';

/**
 * The schedule screen's retention fields (docs/backups.md "Retention") in real Chromium against
 * the real app on the team plan (90 days, 90 backups): the plan's bound shown, a value over it
 * refused by the API with its 402 shown on the field and in the alert, then a value within it saved.
 */
describeWithTools('chromium')('console: a connection retention (real Chromium, real app)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let server: { url: string; close: () => Promise<void> };
  let chromium: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    buildConsoleIfStale();
    org = await startTestOrg({ users: 4, groups: 2, apps: 1, seed: 53 });
    // The console and the API share the host name 127.0.0.1, so the session cookie reaches both.
    const consolePort = await freePort();
    ctx = await startTestApp({
      ...org.env,
      SELF_SERVICE_TEAMS: 'true',
      DEFAULT_PLAN: 'team',
      CONSOLE_ORIGINS: `http://127.0.0.1:${consolePort}`,
    });
    server = await startConsoleServer({ port: consolePort, host: '127.0.0.1', apiUrl: ctx.baseUrl });
    chromium = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    await ctx?.close();
    await org?.sim.close();
  });

  const signIn = async (email: string): Promise<Page> => {
    const context = await chromium.newContext({ viewport: { width: 1280, height: 800 } });
    context.on('weberror', (error) => pageErrors.push(error.error().message));
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('Code').waitFor();
    await page.getByLabel('Code').fill(await latestCode(ctx, email));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    return page;
  };

  it("shows the plan's bound, the API's refusal above it, and saves a value within it", async () => {
    const page = await signIn(newAddress('console-retention'));
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
    await screenshot(page, 'schedule-retention-refused');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await days.fill('30');
    await count.fill('5');
    await dialog.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByText('Schedule saved').waitFor();
    expect(await alert.count()).toBe(0);
    const [saved] = (await ctx.app
      .get(DataSource)
      .query('SELECT retention_days, retention_count FROM schedules')) as Array<Record<string, number>>;
    expect(saved).toEqual({ retention_days: 30, retention_count: 5 });
    expect(pageErrors).toEqual([]);
  }, 180_000);
});
