import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startConsoleSession, type ConsoleSession } from './support/console-session.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { RESTORE_SCOPES, waitForRestore } from './support/restore-helpers.js';
import { newAddress } from './support/sign-in-helpers.js';
import { describeWithTools } from './support/tools.js';

/**
 * Two-person approval in the console (docs/approvals.md), in real Chromium against the real app,
 * PostgreSQL and the Okta simulator: the owner turns the setting on in the team screen, asks for
 * a restore and is shown that it waits; a second admin opens Approvals, sees the dry run re-read
 * against the live org with the differences since, and approves; the restore puts the group back.
 * Every screen is checked with axe-core in both themes and at 390 px.
 */
describeWithTools('chromium')('console approvals (real Chromium, real app, simulator)', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let session: ConsoleSession;
  let ownerContext: BrowserContext;
  let owner: Page;
  let token: string;
  let backupId: string;
  const ownerEmail = newAddress('console-approvals-owner');

  const openSection = async (page: Page, name: string) => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
  };
  const groupNamed = (name: string) =>
    org.sim.snapshot().group.find((group) => (group.data.profile as { name: string }).name === name);
  const expectNoFindings = () => {
    expect(session.findings.violations).toEqual([]);
    expect(session.findings.narrow).toEqual([]);
    expect(session.findings.pageErrors).toEqual([]);
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 6, groups: 3, apps: 1, seed: 53 }, RESTORE_SCOPES);
    okta = new SimulatorClient(org.sim);
    session = await startConsoleSession({ ...org.env, SELF_SERVICE_TEAMS: 'true' });
    ownerContext = await session.newContext();
    owner = await session.signIn(ownerContext, ownerEmail);
    // Arranged through the API: a client of the owner's team, its connection and a backup.
    const [{ team_id: teamId }]: Array<{ team_id: string }> = await session.app.app
      .get(DataSource)
      .query(
        'SELECT team_id FROM team_members m JOIN users u ON u.id = m.user_id WHERE lower(u.email) = lower($1)',
        [ownerEmail],
      );
    token = (await session.app.newClient({ role: 'super_admin', teamId })).token;
    const connectionId = await createConnection(session.app, token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    expect(
      (await okta.call('POST', '/api/v1/groups', { json: { profile: { name: 'Treasury approvers' } } }))
        .status,
    ).toBe(200);
    backupId = (await runBackup(session.app, token, { connectionId })).id;
  }, 240_000);

  beforeEach(() => session?.resetFindings());

  afterAll(async () => {
    await session?.close();
    await org?.sim.close();
  });

  it('holds a restore until a second admin approves it, showing them what changed since', async () => {
    // The owner turns two-person approval on in the team screen.
    await openSection(owner, 'Team');
    const setting = owner.getByRole('checkbox', { name: 'Require approval for restores' });
    await setting.check();
    await owner.getByRole('button', { name: 'Save' }).click();
    await owner.getByText('Saved.').waitFor();
    await session.inspect(owner, 'team-approvals');

    // A second admin joins.
    const approverEmail = newAddress('console-approver');
    await session.app.http
      .post('/api/team/invitations')
      .set('Authorization', `Bearer ${token}`)
      .send({ email: approverEmail, role: 'admin' })
      .expect(201);
    const approverContext = await session.newContext();
    const approver = await session.signIn(approverContext, approverEmail);

    // The group goes; the owner asks for it back, and is told the restore waits.
    const group = groupNamed('Treasury approvers')!;
    expect((await okta.call('DELETE', `/api/v1/groups/${group.id}`)).status).toBe(204);
    await owner.goto(`${session.consoleUrl}/restore?backupId=${backupId}&resourceTypes=group`);
    await owner.getByRole('table', { name: 'Restore preview' }).waitFor({ timeout: 30_000 });
    await owner.getByRole('button', { name: 'Restore…' }).click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Restore now' }).click();
    await owner.getByText('Waiting for approval').waitFor();
    await session.inspect(owner, 'restore-waiting-approval');
    expect(groupNamed('Treasury approvers')).toBeUndefined();

    // The requester sees their own request without a way to approve it.
    await owner.getByRole('link', { name: 'Open the request' }).click();
    await owner.getByText('You asked for this: a second member must decide.').waitFor();
    expect(await owner.getByRole('button', { name: 'Approve and run' }).count()).toBe(0);

    // The second admin finds it among the waiting requests.
    await openSection(approver, 'Approvals');
    const row = approver
      .getByRole('table', { name: 'Approval requests' })
      .getByRole('row', { name: /Restore/ });
    await row.waitFor();
    await session.inspect(approver, 'approvals');
    await row.getByRole('link', { name: 'Restore' }).click();
    await approver
      .getByRole('heading', { name: 'Differences since the request' })
      .waitFor({ timeout: 30_000 });
    await approver.getByText('Nothing changed: the restore would do what the requester saw.').waitFor();
    // The live dry run comes first, before the requester's.
    const live = approver.getByRole('table', { name: 'Restore preview' }).first();
    expect(
      await live
        .getByRole('row', { name: /^group\b/ })
        .getByRole('cell')
        .nth(1)
        .textContent(),
    ).toBe('1');
    await session.inspect(approver, 'approval-detail');

    await approver.getByLabel('Note (optional)').fill('Checked with the requester');
    await approver.getByRole('button', { name: 'Approve and run' }).click();
    await approver.getByText('executed', { exact: true }).waitFor({ timeout: 30_000 });
    await approver.getByRole('link', { name: 'Open the restore' }).click();
    await approver.waitForURL(/\/restores\//);
    const restoreId = new URL(approver.url()).pathname.split('/').pop()!;
    expect((await waitForRestore(session.app, token, restoreId)).restore.status).toBe('completed');
    expect(groupNamed('Treasury approvers')).toBeDefined();
    await approverContext.close();
    expectNoFindings();
  }, 240_000);
});
