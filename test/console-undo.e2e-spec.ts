import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { dirname } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import type { SnapshotRecord } from '@libs/simulators/okta/index.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startConsoleSession, type ConsoleSession } from './support/console-session.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { RESTORE_SCOPES, runRestore, waitForRestore } from './support/restore-helpers.js';
import { newAddress } from './support/sign-in-helpers.js';
import { describeWithTools } from './support/tools.js';

type Json = Record<string, unknown>;

/**
 * Incident recovery in the console (docs/restore.md "Undo since a clean backup" and "Into
 * another org"), in real Chromium against the real app, PostgreSQL and two Okta simulators over
 * HTTPS. Two admins of the org write with their own API tokens (Okta's System Log names the admin
 * who created a token for its writes): Mallory renames a group and adds one, Olivia renames
 * another. The undo screen lists Mallory's changes by her name and undoes them alone; Olivia's
 * rename is reverted from its compare row; the restore screen previews the clean backup into a
 * second org with a group name prefix. Every screen is checked with axe-core in both themes and
 * at 390 px.
 */
describeWithTools('chromium')('console undo, revert and restore into another org (real Chromium)', () => {
  let org: TestOrg;
  let sandbox: TestOrg;
  let okta: SimulatorClient;
  let session: ConsoleSession;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let cleanId: string;
  let laterId: string;
  let connectionId: string;
  let malloryName: string;
  let malloryGroup: SnapshotRecord;
  let oliviaGroup: SnapshotRecord;
  const adminEmail = newAddress('console-undo');

  const groupName = (id: string) =>
    (org.sim.snapshot().group.find((group) => group.id === id)?.data.profile as { name: string } | undefined)
      ?.name;
  /** A write with an admin's own API token (SSWS), as that admin makes it. */
  const as = async (apiToken: string, method: string, path: string, json?: unknown): Promise<Json> => {
    const response = await okta.call(method, path, {
      auth: null,
      headers: { authorization: `SSWS ${apiToken}` },
      ...(json === undefined ? {} : { json }),
    });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
    return (response.body ?? {}) as Json;
  };
  /** Types the confirmation the dialog asks for (the connection's name) and confirms. */
  const confirmTyped = async (button: string) => {
    const dialog = page.getByRole('dialog');
    const typed = (await dialog.locator('strong').textContent())!;
    await dialog.getByRole('textbox').fill(typed);
    await dialog.getByRole('button', { name: button }).click();
  };
  const expectNoFindings = () => {
    expect(session.findings.violations).toEqual([]);
    expect(session.findings.narrow).toEqual([]);
    expect(session.findings.pageErrors).toEqual([]);
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 20, groups: 4, apps: 1, seed: 52 }, RESTORE_SCOPES);
    // The second org shares the first's CA, so the service trusts both (one PROVIDER_CA_FILE).
    sandbox = await startTestOrg(
      { users: 0, groups: 0, apps: 0, seed: 65, certDir: dirname(org.sim.caCertPath) },
      RESTORE_SCOPES,
    );
    okta = new SimulatorClient(org.sim);
    session = await startConsoleSession({ ...org.env, SELF_SERVICE_TEAMS: 'true' });
    context = await session.newContext();
    page = await session.signIn(context, adminEmail);
    const [{ team_id: teamId }]: Array<{ team_id: string }> = await session.app.app
      .get(DataSource)
      .query(
        'SELECT team_id FROM team_members m JOIN users u ON u.id = m.user_id WHERE lower(u.email) = lower($1)',
        [adminEmail],
      );
    token = (await session.app.newClient({ role: 'admin', teamId })).token;
    connectionId = await createConnection(session.app, token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    await createConnection(session.app, token, { baseUrl: sandbox.sim.baseUrl, ...sandbox.integration });

    const state = org.sim.snapshot();
    const admins = new Set(state.admin_role_assignment.map((assignment) => assignment.id.split(':')[0]));
    const [mallory, olivia] = state.user.filter(
      (user) => user.data.status === 'ACTIVE' && !admins.has(user.id),
    );
    const profile = mallory.data.profile as { firstName: string; lastName: string };
    malloryName = `${profile.firstName} ${profile.lastName}`;
    [malloryGroup, oliviaGroup] = state.group.filter((group) => group.data.type === 'OKTA_GROUP');
    cleanId = (await runBackup(session.app, token, { connectionId })).id;

    const malloryToken = org.sim.createApiToken(mallory.id);
    await as(malloryToken, 'PUT', `/api/v1/groups/${malloryGroup.id}`, {
      profile: { ...(malloryGroup.data.profile as Json), name: 'Renamed by Mallory' },
    });
    const oliviaToken = org.sim.createApiToken(olivia.id);
    await as(oliviaToken, 'PUT', `/api/v1/groups/${oliviaGroup.id}`, {
      profile: { ...(oliviaGroup.data.profile as Json), name: 'Renamed by Olivia' },
    });
    laterId = (await runBackup(session.app, token, { connectionId })).id;
  }, 240_000);

  beforeEach(() => session?.resetFindings());

  afterAll(async () => {
    await context?.close();
    await session?.close();
    await okta?.close();
    await org?.sim.close();
    await sandbox?.sim.close();
  });

  it("lists each change since the clean backup with who made it, and undoes one admin's alone", async () => {
    await page.goto(`${session.consoleUrl}/backups/${cleanId}`);
    await page.getByRole('link', { name: 'Undo changes since this backup' }).click();
    await page.getByRole('heading', { level: 1, name: 'Undo changes since a backup' }).waitFor();
    const putBack = page.getByRole('list', { name: 'Undo: Put back as the backup holds it' });
    const malloryItem = putBack.getByRole('listitem').filter({ hasText: 'Renamed by Mallory' });
    await malloryItem.waitFor({ timeout: 60_000 });
    expect(await malloryItem.getByTestId('changed-by').textContent()).toContain(malloryName);
    await putBack.getByRole('listitem').filter({ hasText: 'Renamed by Olivia' }).waitFor();

    // Only Mallory's changes.
    await page.getByRole('combobox', { name: 'Changed by' }).click();
    await page.getByRole('option', { name: new RegExp(malloryName) }).click();
    await page.getByText('1 change to undo').waitFor({ timeout: 60_000 });
    expect(await putBack.getByRole('listitem').count()).toBe(1);
    await session.inspect(page, 'undo');

    await page.getByRole('button', { name: 'Undo…' }).click();
    await confirmTyped('Undo now');
    await page.waitForURL(/\/restores\//, { timeout: 60_000 });
    const restoreId = new URL(page.url()).pathname.split('/').pop()!;
    expect((await waitForRestore(session.app, token, restoreId)).restore.status).toBe('completed');
    expect(groupName(malloryGroup.id)).toBe((malloryGroup.data.profile as { name: string }).name);
    expect(groupName(oliviaGroup.id)).toBe('Renamed by Olivia');
    expectNoFindings();
  }, 240_000);

  it('reverts one change from its compare row', async () => {
    await page.goto(`${session.consoleUrl}/compare?from=${cleanId}&to=${laterId}`);
    await page.getByRole('link', { name: 'Revert this change: Renamed by Olivia' }).click();
    await page.getByRole('heading', { level: 1, name: 'Undo changes since a backup' }).waitFor();
    await page.getByText('1 change to undo').waitFor({ timeout: 60_000 });
    await page
      .getByRole('list', { name: 'Undo: Put back as the backup holds it' })
      .getByRole('listitem')
      .filter({ hasText: 'Renamed by Olivia' })
      .waitFor();
    await session.inspect(page, 'undo-revert-one');
    await page.getByRole('button', { name: 'Undo…' }).click();
    await confirmTyped('Undo now');
    await page.waitForURL(/\/restores\//, { timeout: 60_000 });
    const restoreId = new URL(page.url()).pathname.split('/').pop()!;
    expect((await waitForRestore(session.app, token, restoreId)).restore.status).toBe('completed');
    expect(groupName(oliviaGroup.id)).toBe((oliviaGroup.data.profile as { name: string }).name);
    expectNoFindings();
  }, 240_000);

  it('marks a group a restore re-created under a new id, and changed since, as re-created in compare', async () => {
    const group = org.sim
      .snapshot()
      .group.find(
        (candidate) =>
          candidate.data.type === 'OKTA_GROUP' && ![malloryGroup.id, oliviaGroup.id].includes(candidate.id),
      )!;
    const base = await runBackup(session.app, token, { connectionId });
    await okta.call('DELETE', `/api/v1/groups/${group.id}`);
    const restored = await runRestore(session.app, token, {
      backupId: base.id,
      mode: 'selective',
      resourceTypes: ['group'],
      resourceIds: [group.id],
    });
    const newId = restored.items.find((item) => item.resourceId === group.id)?.newId as string;
    await okta.call('PUT', `/api/v1/groups/${newId}`, {
      json: { profile: { ...(group.data.profile as Json), name: 'Re-created, renamed' } },
    });
    const later = await runBackup(session.app, token, { connectionId });

    await page.goto(`${session.consoleUrl}/compare?from=${base.id}&to=${later.id}`);
    const item = page.getByTestId('change').filter({ hasText: 'Re-created, renamed' });
    await item.waitFor({ timeout: 60_000 });
    expect(await item.getByTestId('recreated').textContent()).toBe('re-created');
    await item.getByText(`re-created by a restore; was ${group.id}`).waitFor();
    // One change for the group: its old id is not listed as removed.
    expect(await page.getByTestId('change').filter({ hasText: 'removed' }).count()).toBe(0);
    await session.inspect(page, 'compare-recreated');
    expectNoFindings();
  }, 240_000);

  it('reverts one field from its compare row, leaving a field changed with it as it is now', async () => {
    const original = org.sim.snapshot().group.find((group) => group.id === oliviaGroup.id)!;
    const profile = original.data.profile as Json;
    const base = await runBackup(session.app, token, { connectionId });
    await okta.call('PUT', `/api/v1/groups/${oliviaGroup.id}`, {
      json: { profile: { ...profile, name: 'Field renamed', description: 'Described later' } },
    });
    const later = await runBackup(session.app, token, { connectionId });

    await page.goto(`${session.consoleUrl}/compare?from=${base.id}&to=${later.id}`);
    await page.getByRole('link', { name: 'Revert this field: Field renamed profile.name' }).click();
    await page.getByRole('heading', { level: 1, name: 'Undo changes since a backup' }).waitFor();
    await page.getByText('1 change to undo').waitFor({ timeout: 60_000 });
    await page
      .getByText(/Only this field, the object's others left as they are now: \/profile\/name/)
      .waitFor();
    await session.inspect(page, 'undo-revert-field');
    await page.getByRole('button', { name: 'Undo…' }).click();
    await confirmTyped('Undo now');
    await page.waitForURL(/\/restores\//, { timeout: 60_000 });
    const restoreId = new URL(page.url()).pathname.split('/').pop()!;
    expect((await waitForRestore(session.app, token, restoreId)).restore.status).toBe('completed');
    const now = org.sim.snapshot().group.find((group) => group.id === oliviaGroup.id)!.data.profile as Json;
    expect(now.name).toBe(profile.name);
    expect(now.description).toBe('Described later');
    expectNoFindings();
  }, 240_000);

  it('previews the clean backup into another org with a group name prefix', async () => {
    await page.goto(`${session.consoleUrl}/restore?backupId=${cleanId}`);
    await page.getByRole('combobox', { name: 'Types' }).click();
    await page.getByRole('option', { name: 'group', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'Restore into (optional)' }).click();
    await page.getByRole('option').first().click();
    await page.getByRole('textbox', { name: 'Group name prefix' }).fill('Sandbox - ');
    const original = (malloryGroup.data.profile as { name: string }).name;
    const row = page
      .getByRole('table', { name: 'Objects in the other org' })
      .getByRole('row', { name: new RegExp(`Sandbox - ${original}`) });
    await row.waitFor({ timeout: 60_000 });
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('Create');
    await session.inspect(page, 'restore-into-another-org');
    // The confirmation names the other org and asks for its connection's name.
    await page.getByRole('button', { name: 'Restore…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`This writes to ${sandbox.sim.baseUrl}`).waitFor();
    expect(await dialog.getByRole('button', { name: 'Restore now' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expectNoFindings();
  }, 240_000);
});
