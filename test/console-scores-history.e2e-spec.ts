import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { ScoreHistoryJob } from '@app/scores/score-history.job.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startConsoleSession, type ConsoleSession } from './support/console-session.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { newAddress } from './support/sign-in-helpers.js';
import type { TestClient } from './support/test-app.js';
import { describeWithTools } from './support/tools.js';

interface Point {
  at: string;
  resilience: number;
  readiness: number;
}

const DAY_MS = 86_400_000;

/**
 * docs/console.md "Scores", over time: a viewer reads one connection's resilience and readiness as a
 * line chart over the chosen period, with its text alternative (a summary the figure is described by,
 * and every reading in a table), in real Chromium against the real app and the Okta simulator. The
 * readings are the score-history job's: one after the backup, and daily ones of earlier days.
 */
describeWithTools('chromium')('console: scores over time (real Chromium)', () => {
  let org: TestOrg;
  let session: ConsoleSession;
  let admin: TestClient;
  let connectionId: string;
  let page: Page;

  /** The connection's history as the API answers it, once it holds at least `count` readings. */
  const historyOf = async (days: number, count = 0): Promise<Point[]> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await session.app.http
        .get(`/api/scores/history?connectionId=${connectionId}&days=${days}`)
        .set('Authorization', `Bearer ${admin.token}`);
      expect(response.status).toBe(200);
      const points = response.body.points as Point[];
      if (points.length >= count) return points;
      if (Date.now() > deadline) throw new Error(`history never reached ${count} readings`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 10, groups: 3, apps: 2, seed: 41 });
    session = await startConsoleSession(org.env);
    const ctx = session.app;
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    // The daily runs of earlier days, then a backup (whose reading the job takes once it completes).
    const job = ctx.app.get(ScoreHistoryJob);
    for (const daysAgo of [10, 2, 1])
      await job.daily({
        data: { now: new Date(Date.now() - daysAgo * DAY_MS).toISOString() },
      } as Job<'score-history'>);
    expect((await runBackup(ctx, admin.token, { connectionId })).status).toBe('completed');
    await historyOf(30, 4);
    const viewerEmail = newAddress('console-scores-viewer');
    const invited = await ctx.http
      .post('/api/team/invitations')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ email: viewerEmail, role: 'viewer' });
    expect(invited.status).toBe(201);
    page = await session.signIn(await session.newContext(), viewerEmail);
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    await org?.sim.close();
  });

  /** The readings the disclosed table lists, as the API's points. */
  const tableReadings = async (): Promise<Array<{ at: string; resilience: number; readiness: number }>> => {
    const rows = page.getByRole('table', { name: 'Readings' }).getByTestId('reading');
    const found = [];
    for (const row of await rows.all()) {
      const at = await row.locator('time').getAttribute('datetime');
      const [resilience, readiness] = (await row.locator('td').allInnerTexts()).slice(1).map(Number);
      found.push({ at: new Date(at!).toISOString(), resilience, readiness });
    }
    return found;
  };

  it('charts both scores over the chosen period, with the readings as text', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Scores' }).click();
    const chart = page.getByTestId('score-history-chart');
    await chart.waitFor();
    const month = await historyOf(30);
    expect(month).toHaveLength(4);

    // Two lines, one dot per reading each; the figure is described by its summary.
    await chart.locator('.recharts-line').nth(1).waitFor();
    expect(await chart.locator('.recharts-line').count()).toBe(2);
    expect(await chart.locator('.recharts-line-dot').count()).toBe(2 * month.length);
    const summary = page.locator(`#${await chart.getAttribute('aria-describedby')}`.replace(/:/g, '\\:'));
    expect(await summary.innerText()).toMatch(
      /^4 readings over the last 30 days\. Resilience from \d+ to \d+/,
    );
    expect(await summary.innerText()).toContain(`to ${month.at(-1)!.resilience} `);

    await page.getByRole('button', { name: 'Show the 4 readings as a table' }).click();
    await page.getByRole('table', { name: 'Readings' }).getByTestId('reading').nth(3).waitFor();
    expect(await tableReadings()).toEqual(month);

    // A week leaves out the reading of 10 days ago.
    await page.getByText('7 days', { exact: true }).click();
    const week = await historyOf(7);
    expect(week).toEqual(month.slice(1));
    await page.getByRole('button', { name: 'Show the 3 readings as a table' }).waitFor();
    await expect(tableReadings()).resolves.toEqual(week);
    await session.inspect(page, 'scores-history');

    expect(session.findings.violations).toEqual([]);
    expect(session.findings.narrow).toEqual([]);
    expect(session.findings.pageErrors).toEqual([]);
  }, 120_000);
});
