import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { startConsoleSession, type ConsoleSession } from './support/console-session.js';
import { newAddress } from './support/sign-in-helpers.js';
import { describeWithTools } from './support/tools.js';

/**
 * The console's team and account screens in real Chromium against the real app and PostgreSQL,
 * driven as an owner would: a member invited, joining at their first sign-in, their role changed
 * and removed; an integration client whose secret is shown once, then revoked; the account's
 * deletion requested with DELETE typed, its banner on every screen until cancelled; and an
 * export whose limits show before the click. The team is on the free plan, so the limits are
 * the figures of docs/plans.md. Every screen is checked with axe-core in both themes and at 390 px.
 */
describeWithTools('chromium')('console team and account screens (real Chromium, real app)', () => {
  let session: ConsoleSession;
  let context: BrowserContext;
  let owner: Page;
  const ownerEmail = newAddress('console-owner');

  /** A GET of the API's `path` from `page`, as the console makes it (its origin, the session cookie). */
  const fetchFromConsole = (page: Page, path: string) =>
    page.evaluate(async (url) => {
      const response = await fetch(url, { credentials: 'include' });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    }, `${session.app.baseUrl}${path}`);
  const openSection = async (name: string) => {
    await owner.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name }).click();
    await owner.getByRole('heading', { level: 1, name }).waitFor();
  };
  /** Invites `email` with `role` from the owner's team screen, as the owner would. */
  const invite = async (email: string, role: string) => {
    const invitations = owner.getByRole('region', { name: 'Invitations' });
    await invitations.getByLabel('E-mail address to invite').fill(email);
    await invitations.getByLabel('Role').selectOption(role);
    await invitations.getByRole('button', { name: 'Invite' }).click();
    await invitations.getByRole('row', { name: new RegExp(email.toLowerCase()) }).waitFor();
  };
  const expectNoFindings = () => {
    expect(session.findings.violations).toEqual([]);
    expect(session.findings.narrow).toEqual([]);
    expect(session.findings.pageErrors).toEqual([]);
  };

  beforeAll(async () => {
    session = await startConsoleSession({ SELF_SERVICE_TEAMS: 'true', DEFAULT_PLAN: 'free' });
    context = await session.newContext();
    owner = await session.signIn(context, ownerEmail);
  }, 180_000);

  beforeEach(() => session?.resetFindings());

  afterAll(async () => {
    await session?.close();
  });

  it('invites a member who joins at sign-in with the role given, then changes their role and removes them', async () => {
    await openSection('Team');
    const invitations = owner.getByRole('region', { name: 'Invitations' });
    const memberEmail = newAddress('console-member');
    const address = memberEmail.toLowerCase();
    await invite(memberEmail, 'operator');
    // A second invitation, left open for the screen's picture, then revoked.
    const otherEmail = newAddress('console-other');
    await invite(otherEmail, 'viewer');
    const plan = owner.getByRole('table', { name: 'Plan limits and usage' });
    await plan.getByRole('row', { name: /Members and open invitations 3 limit reached 3/ }).waitFor();

    // The invited address signs in with its e-mail code, as anyone does, and is in the team.
    const memberContext = await session.newContext();
    const member = await session.signIn(memberContext, memberEmail);
    const memberMe = await fetchFromConsole(member, '/api/me');
    expect(memberMe.status).toBe(200);
    expect(memberMe.body.current_team).toMatchObject({ role: 'operator' });

    await owner.reload();
    const members = owner.getByRole('table', { name: 'Members' });
    const roleSelect = members.getByLabel(`Role of ${address}`);
    await roleSelect.waitFor();
    expect(await roleSelect.inputValue()).toBe('operator');
    expect(await owner.getByRole('table', { name: 'Open invitations' }).textContent()).not.toContain(address);
    await session.inspect(owner, 'team');
    await plan.getByRole('row', { name: /Members and open invitations 3 limit reached 3/ }).waitFor();
    await plan.evaluate((table) => table.scrollIntoView({ block: 'end' }));
    await session.inspect(owner, 'team-plan');

    await roleSelect.selectOption('auditor');
    await owner.getByText(`${address} is now Auditor`).waitFor();
    expect((await fetchFromConsole(member, '/api/me')).body.current_team).toMatchObject({ role: 'auditor' });

    await members.getByRole('button', { name: `Remove ${address}` }).click();
    const dialog = owner.getByRole('dialog', { name: 'Remove member' });
    await dialog.getByRole('button', { name: 'Remove member' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await members.getByText(address).waitFor({ state: 'detached' });
    expect((await fetchFromConsole(member, '/api/me')).status).toBe(401);

    await invitations.getByRole('button', { name: `Revoke ${otherEmail.toLowerCase()}` }).click();
    await owner
      .getByRole('dialog', { name: 'Revoke invitation' })
      .getByRole('button', { name: 'Revoke invitation' })
      .click();
    await invitations.getByText('No open invitations.').waitFor();
    await plan.getByRole('row', { name: /Members and open invitations 1 3/ }).waitFor();
    await memberContext.close();
    expectNoFindings();
  }, 120_000);

  it('creates an integration client whose secret shows once, and revokes it so the API refuses its token', async () => {
    await openSection('Team');
    const clients = owner.getByRole('region', { name: 'Integration clients' });
    await clients.getByLabel('Name (optional)').fill('Nightly export');
    await clients.getByLabel('Role').selectOption('auditor');
    await clients.getByRole('button', { name: 'Create client' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Client created' });
    const secret = (await dialog.getByTestId('client-secret').textContent())!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = clients.getByRole('row', { name: /Nightly export/ });
    const clientId = (await row.getByRole('cell').nth(1).textContent())!;
    expect(clientId).toMatch(/^ic_/);
    await dialog.getByRole('button', { name: 'Copy secret' }).waitFor();
    await session.inspect(owner, 'team-client-secret');

    const token = await session.app.token(clientId, secret);
    const asClient = await session.app.http
      .get('/api/me')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(asClient.body.client).toMatchObject({
      client_id: clientId,
      name: 'Nightly export',
      role: 'auditor',
    });

    await dialog.getByRole('button', { name: 'I have stored the secret' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await owner.content()).not.toContain(secret);
    await owner.reload();
    await row.waitFor();
    expect(await owner.content()).not.toContain(secret);

    await row.getByRole('button', { name: 'Revoke Nightly export' }).click();
    await owner
      .getByRole('dialog', { name: 'Revoke client' })
      .getByRole('button', { name: 'Revoke client' })
      .click();
    await row.getByText('revoked').waitFor();
    await session.app.http.get('/api/me').set('Authorization', `Bearer ${token}`).expect(401);
    await expect(session.app.token(clientId, secret)).rejects.toThrow(/token endpoint answered 401/);
    expectNoFindings();
  }, 120_000);

  it('requests the account deletion with DELETE typed, shows the banner on every screen, and cancels it', async () => {
    await openSection('Account');
    await session.inspect(owner, 'account');
    await owner.getByRole('button', { name: 'Delete this account' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Delete the account' });
    const confirm = dialog.getByRole('button', { name: 'Request deletion' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type DELETE to confirm').fill('delete');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    await confirm.click();
    await dialog.waitFor({ state: 'hidden' });

    const banner = owner.getByRole('region', { name: 'This team is scheduled for deletion' });
    await banner.waitFor();
    const me = await fetchFromConsole(owner, '/api/me');
    const scheduledFor = (me.body.current_team as { deletion_scheduled_for: string }).deletion_scheduled_for;
    const days = (Date.parse(scheduledFor) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(await banner.locator('time').getAttribute('datetime')).toBe(
      new Date(scheduledFor).toISOString().replace('.000Z', 'Z'),
    );
    for (const section of ['Team', 'Backups']) {
      await openSection(section);
      await banner.waitFor();
    }
    await session.inspect(owner, 'deletion-banner');

    // A member who is not the owner reads the banner without the means to cancel.
    await openSection('Team');
    const auditorEmail = newAddress('console-auditor');
    await invite(auditorEmail, 'auditor');
    const auditorContext = await session.newContext();
    const auditor = await session.signIn(auditorContext, auditorEmail);
    const auditorBanner = auditor.getByRole('region', { name: 'This team is scheduled for deletion' });
    await auditorBanner.getByText('Only the owner can cancel it.').waitFor();
    expect(await auditorBanner.getByRole('button').count()).toBe(0);
    await auditor
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Account' })
      .click();
    await auditor.getByText('Only the team’s owner can request deletion.').waitFor();
    expect(await auditor.getByRole('button', { name: 'Delete this account' }).count()).toBe(0);
    await auditorContext.close();

    await banner.getByRole('button', { name: 'Cancel deletion' }).click();
    await banner.waitFor({ state: 'detached' });
    expect((await fetchFromConsole(owner, '/api/me')).body.current_team).toMatchObject({
      deletion_scheduled_for: null,
    });
    await openSection('Team');
    expect(await banner.count()).toBe(0);
    expectNoFindings();
  }, 120_000);

  it('shows both export limits before the click, then downloads the export', async () => {
    await openSection('Account');
    const exportSection = owner.getByRole('region', { name: 'Export the team’s data' });
    await exportSection.getByText('One export per 7 days for every team.').waitFor();
    await exportSection
      .getByText('The free plan allows 1 per calendar month (UTC); 0 of 1 used this month.')
      .waitFor();
    await exportSection.getByText('Last export: none yet').waitFor();
    await exportSection.getByText('An export is possible now.').waitFor();

    const [download] = await Promise.all([
      owner.waitForEvent('download'),
      exportSection.getByRole('button', { name: 'Download export' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('account-export.json');
    const document = JSON.parse(readFileSync((await download.path())!, 'utf8')) as Record<string, unknown>;
    const me = await fetchFromConsole(owner, '/api/me');
    expect(document).toMatchObject({
      format_version: 1,
      team_id: (me.body.current_team as { id: string }).id,
    });
    expect(document.members).toContainEqual(
      expect.objectContaining({ email: ownerEmail.toLowerCase(), role: 'super_admin' }),
    );

    // Now both limits hold: the later of the two is the one named, and the button waits.
    await exportSection
      .getByText('The free plan allows 1 per calendar month (UTC); 1 of 1 used this month.')
      .waitFor();
    await exportSection
      .getByText(/^The next export is possible from|^This month’s exports are used/)
      .waitFor();
    expect(await exportSection.getByRole('button', { name: 'Download export' }).isDisabled()).toBe(true);
    await session.inspect(owner, 'account-export-used');
    expectNoFindings();
  }, 120_000);
});
