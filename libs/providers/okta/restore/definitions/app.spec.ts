import { describe, expect, it } from '@jest/globals';
import { cassettesDir } from '@libs/simulators/okta/testing/fixture-paths.js';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';
import { hasGeneratedName } from './app.js';

type Json = Record<string, unknown>;
const at = (data: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((value, key) => (value as Json | undefined)?.[key], data);

/** Deletes an app the way an admin does: deactivated first, as Okta requires. */
async function deleteApp(org: RestoreTestOrg, appId: string): Promise<void> {
  await org.call('POST', `/api/v1/apps/${appId}/lifecycle/deactivate`);
  await org.call('DELETE', `/api/v1/apps/${appId}`);
}

/** One app per sign-on mode, status, and custom or catalog: what a restore must be able to re-create. */
function oneOfEachMode(apps: ResourceRecord[], sut: ProviderRestorer): ResourceRecord[] {
  const restorable = apps.filter((app) => sut.managedBecause(app) === null);
  const kind = (app: ResourceRecord) =>
    `${String(app.data.signOnMode)}:${String(app.data.status)}:${hasGeneratedName(app.data)}`;
  return [...new Map(restorable.map((app) => [kind(app), app])).values()];
}

/** Re-creates each deleted app and answers the restored records, checked as a user would see them. */
async function recreate(org: RestoreTestOrg, sut: ProviderRestorer, apps: ResourceRecord[]) {
  const restored: Array<{ backedUp: ResourceRecord; restored: ResourceRecord; notes: string[] }> = [];
  for (const backedUp of apps) {
    await deleteApp(org, backedUp.id);
    const result = await sut.apply({ action: 'create', record: backedUp, with: [] });
    const live = await org.find('app', (app) => app.id === result.id);
    expect(result.id).not.toBe(backedUp.id);
    restored.push({ backedUp, restored: live!, notes: result.notes });
  }
  return restored;
}

/** The app type's restore writes against a generated org (simulator over HTTPS). */
describe('app restore definition', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;

  useRestoreTestOrg({ users: 30, groups: 5, apps: 10, seed: 11 }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it('re-creates a deleted app of each sign-on mode under a new id, status and settings as backed up', async () => {
    const apps = oneOfEachMode(await org.records('app'), sut);
    expect(apps.map((app) => app.data.signOnMode).sort()).toEqual([
      'AUTO_LOGIN',
      'BASIC_AUTH',
      'BOOKMARK',
      'OPENID_CONNECT',
      'SAML_2_0',
    ]);
    expect(apps.some((app) => app.data.status === 'INACTIVE')).toBe(true);

    for (const { backedUp, restored } of await recreate(org, sut, apps)) {
      expect(restored.data.label).toBe(backedUp.data.label);
      expect(restored.data.status).toBe(backedUp.data.status);
      expect(sut.fingerprint(restored)).toBe(sut.fingerprint(backedUp));
      expect(sut.naturalKey(restored)).toBe(sut.naturalKey(backedUp));
    }
  });

  it('gives a re-created OIDC client its backed-up client_id (the old app id) and a new secret, and says so', async () => {
    const [backedUp] = (await org.records('app')).filter((app) => app.data.signOnMode === 'OPENID_CONNECT');

    const [{ restored, notes }] = await recreate(org, sut, [backedUp]);

    expect(at(restored.data, 'credentials', 'oauthClient', 'client_id')).toBe(backedUp.id);
    expect(restored.id).not.toBe(backedUp.id);
    const secrets = (await org.records('app_client_secret')).filter((s) =>
      s.id.startsWith(`${restored.id}:`),
    );
    expect(secrets).toHaveLength(1);
    expect(notes.join(' ')).toMatch(/New client secret/);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(backedUp));
  });

  it('keeps the client_id an OIDC client chose', async () => {
    const created = await org.call('POST', '/api/v1/apps', {
      label: 'Expense portal',
      signOnMode: 'OPENID_CONNECT',
      credentials: {
        oauthClient: { client_id: 'expense-portal', token_endpoint_auth_method: 'client_secret_post' },
      },
      settings: {
        oauthClient: {
          redirect_uris: ['https://expenses.example.com/cb'],
          grant_types: ['authorization_code'],
        },
      },
    });
    const backedUp = (await org.find('app', (app) => app.id === created.id))!;

    const [{ restored, notes }] = await recreate(org, sut, [backedUp]);

    expect(at(restored.data, 'credentials', 'oauthClient', 'client_id')).toBe('expense-portal');
    expect(notes.join(' ')).toMatch(/New client secret/);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(backedUp));
  });

  it('re-creates a custom SAML app under the name Okta gives it, its own link hidden as backed up', async () => {
    const created = await org.call('POST', '/api/v1/apps', {
      label: 'Expense reports',
      signOnMode: 'SAML_2_0',
      settings: { signOn: { ssoAcsUrl: 'https://expenses.example.com/acs', audience: 'expenses' } },
    });
    const name = String(created.name);
    await org.call('PUT', `/api/v1/apps/${String(created.id)}`, {
      ...created,
      visibility: { ...(created.visibility as Json), appLinks: { [`${name}_link`]: false } },
    });
    const backedUp = (await org.find('app', (app) => app.id === created.id))!;

    const [{ restored, notes }] = await recreate(org, sut, [backedUp]);

    expect(restored.data.name).not.toBe(name);
    expect(at(restored.data, 'visibility', 'appLinks')).toEqual({
      [`${String(restored.data.name)}_link`]: false,
    });
    expect(notes.join(' ')).toMatch(/new metadata/);
    const kid = String(at(restored.data, 'credentials', 'signing', 'kid'));
    expect(kid).not.toBe(at(backedUp.data, 'credentials', 'signing', 'kid'));
    expect((await org.records('app_signing_key')).map((key) => key.id)).toContain(`${restored.id}:${kid}`);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(backedUp));
  });

  it('puts back a changed app and activates it again', async () => {
    const backedUp = (await org.find('app', (app) => app.data.signOnMode === 'BOOKMARK'))!;
    await org.call('PUT', `/api/v1/apps/${backedUp.id}`, {
      ...backedUp.data,
      label: 'Renamed',
      settings: { app: { url: 'https://elsewhere.example.com' } },
    });
    await org.call('POST', `/api/v1/apps/${backedUp.id}/lifecycle/deactivate`);
    const changed = (await org.find('app', (app) => app.id === backedUp.id))!;
    expect(sut.fingerprint(changed)).not.toBe(sut.fingerprint(backedUp));

    await sut.apply({ action: 'update', record: backedUp, live: sut.live(changed) });

    const restored = (await org.find('app', (app) => app.id === backedUp.id))!;
    expect(restored.data.status).toBe('ACTIVE');
    expect(restored.data.label).toBe(backedUp.data.label);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(backedUp));
  });

  it('changes an INACTIVE custom app while active, as Okta requires, and leaves it INACTIVE', async () => {
    const created = await org.call('POST', '/api/v1/apps?activate=false', {
      label: 'Travel booking',
      signOnMode: 'AUTO_LOGIN',
      settings: { signOn: { loginUrl: 'https://travel.example.com/login' } },
    });
    const appId = String(created.id);
    const backedUp = (await org.find('app', (app) => app.id === appId))!;
    await org.call('POST', `/api/v1/apps/${appId}/lifecycle/activate`);
    await org.call('PUT', `/api/v1/apps/${appId}`, { ...backedUp.data, label: 'Travel (old)' });
    await org.call('POST', `/api/v1/apps/${appId}/lifecycle/deactivate`);
    await org.call('PUT', `/api/v1/apps/${appId}`, backedUp.data, 400);
    const changed = (await org.find('app', (app) => app.id === appId))!;

    await sut.apply({ action: 'update', record: backedUp, live: sut.live(changed) });

    const restored = (await org.find('app', (app) => app.id === appId))!;
    expect(restored.data.status).toBe('INACTIVE');
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(backedUp));
  });

  it('deletes an ACTIVE app (prune) by deactivating it first', async () => {
    const live = (await org.find(
      'app',
      (app) => app.data.status === 'ACTIVE' && sut.managedBecause(app) === null,
    ))!;

    await sut.apply({ action: 'delete', type: 'app', live: sut.live(live) });

    expect(await org.find('app', (app) => app.id === live.id)).toBeUndefined();
  });

  it('follows a re-created app into the authorization server policies that name it as a client', async () => {
    const [client] = (await org.records('app')).filter((app) => app.data.signOnMode === 'OPENID_CONNECT');
    const [policy] = await org.records('authorization_server_policy');
    const naming = { ...policy, data: { ...policy.data, conditions: { clients: { include: [client.id] } } } };
    const [{ restored }] = await recreate(org, sut, [client]);

    const rewritten = sut.rewrite(naming, new Map([[client.id, restored.id]]));

    expect(at(rewritten.data, 'conditions', 'clients', 'include')).toEqual([restored.id]);
    expect(sut.references(naming)).toContain(client.id);
  });
});

const recorded = cassettesDir();

/** Apps recorded from real orgs: every sign-on mode they hold, and the apps Okta keeps to itself. */
(recorded ? describe : describe.skip)('app restore definition, apps recorded from real orgs', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;

  useRestoreTestOrg({ fixturesDir: recorded }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it('re-creates a deleted app of every recorded sign-on mode, catalog apps from their name', async () => {
    const apps = oneOfEachMode(await org.records('app'), sut);
    expect(new Set(apps.map((app) => app.data.signOnMode))).toEqual(
      new Set([
        'OPENID_CONNECT',
        'BOOKMARK',
        'BROWSER_PLUGIN',
        'SAML_2_0',
        'SAML_1_1',
        'BASIC_AUTH',
        'SECURE_PASSWORD_STORE',
        'AUTO_LOGIN',
      ]),
    );

    const catalogApps = apps.filter((app) => !hasGeneratedName(app.data)).map((app) => app.data.name);
    expect(catalogApps).toEqual(
      expect.arrayContaining(['template_sps', 'sharepoint_onpremise', 'oidc_client']),
    );
    expect(apps.filter((app) => app.data.signOnMode === 'SAML_2_0').length).toBeGreaterThan(1);
    expect(apps.some((app) => hasGeneratedName(app.data))).toBe(true);

    for (const { backedUp, restored } of await recreate(org, sut, apps)) {
      expect(restored.data.status).toBe(backedUp.data.status);
      if (catalogApps.includes(backedUp.data.name)) expect(restored.data.name).toBe(backedUp.data.name);
      expect(sut.fingerprint(restored)).toBe(sut.fingerprint(backedUp));
    }
  });

  it("leaves Okta's own apps and directory integrations to Okta, but not an Org2Org app an admin added", async () => {
    const apps = await org.records('app');
    const named = (name: string) => apps.find((app) => app.data.name === name)!;

    for (const name of ['saasure', 'okta_enduser', 'okta_flow_sso', 'active_directory', 'csv_directory_v2'])
      expect(sut.managedBecause(named(name))).not.toBeNull();
    expect(sut.managedBecause(named('okta_org2org'))).toBeNull();
  });
});
