import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort } from '@app/platform/bootstrap/free-port.js';
import { startConsoleServer } from '@console/server/console-server.js';
import {
  buildConsoleIfStale,
  horizontalOverflowAt,
  launchChromium,
  screenshot,
  seriousAxeViolationsInThemes,
  type AxeViolation,
} from './console-browser.js';
import { latestCode } from './sign-in-helpers.js';
import { startTestApp, type TestApp } from './test-app.js';

/** What one screen check found: axe-core violations (either theme) and sideways scrolling at 390 px. */
export interface ScreenFindings {
  violations: Array<AxeViolation & { screen: string }>;
  narrow: Array<{ screen: string; overflow: number }>;
  /** Uncaught errors of the console's pages. */
  pageErrors: string[];
}

/**
 * The console served on loopback beside the real app, with real Chromium: the pieces every
 * browser test file needs. The console and the API share the host name 127.0.0.1 so the
 * session cookie reaches both (docs/console.md "Running it").
 */
export interface ConsoleSession {
  app: TestApp;
  /** The console's origin, e.g. `http://127.0.0.1:41234`. */
  consoleUrl: string;
  chromium: Browser;
  findings: ScreenFindings;
  /** A browser context at 1280 x 800 whose page errors land in `findings.pageErrors`. */
  newContext(): Promise<BrowserContext>;
  /** Signs `email` in with the e-mail code from the app's outbox; answers the page once the navigation shows. */
  signIn(context: BrowserContext, email: string): Promise<Page>;
  /**
   * Checks the page as `screen`: axe-core in both themes, sideways scrolling at 390 px, and with
   * CONSOLE_SCREENSHOTS=1 a screenshot docs/console/<screen>.png.
   */
  inspect(page: Page, screen: string): Promise<void>;
  /** Empties the findings (call in beforeEach). */
  resetFindings(): void;
  close(): Promise<void>;
}

/**
 * Builds the console if stale, starts the app with `env` (plus the console's origin in
 * CONSOLE_ORIGINS), serves the console (with `consoleSettings` in its /config.json, e.g. a
 * shorter unread-count poll than the 30 s default) and launches Chromium.
 */
export async function startConsoleSession(
  env: Record<string, string> = {},
  consoleSettings: { unreadPollSeconds?: number } = {},
): Promise<ConsoleSession> {
  buildConsoleIfStale();
  const consolePort = await freePort();
  const consoleOrigin = `http://127.0.0.1:${consolePort}`;
  const app = await startTestApp({ ...env, CONSOLE_ORIGINS: consoleOrigin });
  const server = await startConsoleServer({
    port: consolePort,
    host: '127.0.0.1',
    apiUrl: app.baseUrl,
    ...consoleSettings,
  });
  const chromium = await launchChromium();
  const findings: ScreenFindings = { violations: [], narrow: [], pageErrors: [] };
  return {
    app,
    consoleUrl: server.url,
    chromium,
    findings,
    async newContext() {
      // Reduced motion: the console then skips its transitions, so axe never reads the colours of a
      // notification half faded in.
      const context = await chromium.newContext({
        viewport: { width: 1280, height: 800 },
        reducedMotion: 'reduce',
      });
      context.on('weberror', (error) => findings.pageErrors.push(error.error().message));
      return context;
    },
    async signIn(context, email) {
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.getByLabel('E-mail address').fill(email);
      await page.getByRole('button', { name: 'Send code' }).click();
      await page.getByLabel('Code').waitFor();
      await page.getByLabel('Code').fill(await latestCode(app, email));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Sections' }).waitFor();
      return page;
    },
    async inspect(page, screen) {
      await screenshot(page, screen);
      for (const violation of await seriousAxeViolationsInThemes(page))
        findings.violations.push({ ...violation, screen });
      const overflow = await horizontalOverflowAt(page, 390);
      if (overflow > 0) findings.narrow.push({ screen, overflow });
    },
    resetFindings() {
      findings.violations.length = 0;
      findings.narrow.length = 0;
      findings.pageErrors.length = 0;
    },
    async close() {
      await chromium.close();
      await server.close();
      await app.close();
    },
  };
}
