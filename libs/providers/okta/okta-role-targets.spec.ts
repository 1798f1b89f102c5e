import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startSimulator, type RunningSimulator } from '@libs/simulators/okta/index.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { collectRecords } from '@libs/providers/testing/collect-parts.js';
import { OktaConnector } from './okta-connector.js';
import { OKTA_BACKUP_SCOPES } from './okta-scopes.js';

const USER_GROUP_TARGETS = 'GET /api/v1/users/{userId}/roles/{roleAssignmentId}/targets/groups';
const GROUP_GROUP_TARGETS = 'GET /api/v1/groups/{groupId}/roles/{roleAssignmentId}/targets/groups';
const USER_APP_TARGETS = 'GET /api/v1/users/{userId}/roles/{roleAssignmentId}/targets/catalog/apps';
const GROUP_APP_TARGETS = 'GET /api/v1/groups/{groupId}/roles/{roleAssignmentId}/targets/catalog/apps';

/** Collection of admin_role_target: records, ids, and requests only for roles Okta limits. */
describe('OktaConnector: admin role targets (simulator over HTTPS)', () => {
  let sim: RunningSimulator;
  let admin: SimulatorClient;
  let connector: () => OktaConnector;

  const call = async (method: string, path: string, json?: unknown) => {
    const response = await admin.call(method, path, json === undefined ? {} : { json });
    if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}`);
    return response.body as { id: string };
  };
  const collect = (sut: OktaConnector, types: string[]) => collectRecords(sut, { types });
  const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
  const plain = (records: Array<{ id: string; name: string | null; data: unknown }>) =>
    records.map(({ id, name, data }) => ({ id, name, data })).sort(byId);

  beforeAll(async () => {
    sim = await startSimulator({ users: 60, groups: 12, apps: 3, seed: 23 });
    admin = new SimulatorClient(sim);
    const installed = await admin.call('POST', '/integrations/api/v1/api-services', {
      json: { type: 'idp_backup', grantedScopes: OKTA_BACKUP_SCOPES },
    });
    const { id: clientId, clientSecret } = installed.body as { id: string; clientSecret: string };
    connector = () =>
      new OktaConnector({
        orgUrl: sim.baseUrl,
        clientId,
        clientSecret,
        allowedHosts: ['127.0.0.1'],
        caCertPem: sim.caCertPem,
      });
    // Beside the generated ones: a group's APP_ADMIN limited to an app instance, a user's
    // GROUP_MEMBERSHIP_ADMIN left org-wide (asked, no targets) and a REPORT_ADMIN (never asked).
    const snapshot = sim.snapshot();
    const admins = new Set(snapshot.admin_role_assignment.map((a) => a.id.split(':')[0]));
    const [user, other] = snapshot.user.filter((u) => u.data.status === 'ACTIVE' && !admins.has(u.id));
    const group = snapshot.group.find((g) => g.data.type === 'OKTA_GROUP' && !admins.has(g.id))!;
    const [app] = snapshot.app;
    const appAdmin = await call('POST', `/api/v1/groups/${group.id}/roles`, { type: 'APP_ADMIN' });
    await call(
      'PUT',
      `/api/v1/groups/${group.id}/roles/${appAdmin.id}/targets/catalog/apps/${String(app.data.name)}/${app.id}`,
    );
    await call('POST', `/api/v1/users/${user.id}/roles`, { type: 'GROUP_MEMBERSHIP_ADMIN' });
    await call('POST', `/api/v1/users/${other.id}/roles`, { type: 'REPORT_ADMIN' });
  });

  afterAll(async () => {
    await admin?.close();
    await sim?.close();
  });

  it('backs up every target exactly as the org holds it, one request per assignment of a role Okta limits', async () => {
    const sut = connector();
    try {
      const parts = await collect(sut, ['admin_role_assignment', 'admin_role_target']);

      const snapshot = sim.snapshot();
      expect(plain(parts.get('admin_role_target') ?? [])).toStrictEqual(plain(snapshot.admin_role_target));
      const roleTypes = new Set(snapshot.admin_role_target.map((t) => t.data.roleType));
      expect(roleTypes).toEqual(new Set(['HELP_DESK_ADMIN', 'USER_ADMIN', 'APP_ADMIN']));
      // Requests: one per assignment of a limited role, by owner kind; none for the others.
      const limited = (prefix: string, types: string[]) =>
        snapshot.admin_role_assignment.filter(
          (a) => a.id.startsWith(prefix) && types.includes(String(a.data.type)),
        ).length;
      const groupRoles = ['USER_ADMIN', 'HELP_DESK_ADMIN', 'GROUP_MEMBERSHIP_ADMIN'];
      const counts = {
        [USER_GROUP_TARGETS]: limited('00u', groupRoles),
        [GROUP_GROUP_TARGETS]: limited('00g', groupRoles),
        [USER_APP_TARGETS]: limited('00u', ['APP_ADMIN']),
        [GROUP_APP_TARGETS]: limited('00g', ['APP_ADMIN']),
      };
      expect(Object.values(counts).every((count) => count > 0)).toBe(true);
      expect(sut.stats().byEndpoint).toMatchObject(counts);
      const targetRequests = Object.entries(sut.stats().byEndpoint).filter(([endpoint]) =>
        endpoint.includes('/targets/'),
      );
      expect(targetRequests.reduce((sum, [, count]) => sum + count, 0)).toBe(
        Object.values(counts).reduce((sum, count) => sum + count, 0),
      );
    } finally {
      await sut.close();
    }
  });

  it('names a target by its group, app instance or OIN app; ids say which unambiguously', async () => {
    const sut = connector();
    try {
      const targets = (await collect(sut, ['admin_role_target'])).get('admin_role_target') ?? [];

      const instance = targets.find((t) => t.data.appId !== undefined)!;
      const catalog = targets.find((t) => t.data.appName !== undefined)!;
      const group = targets.find((t) => t.data.groupId !== undefined)!;
      expect(instance.id.split(':')).toEqual([expect.any(String), expect.any(String), instance.data.appId]);
      expect(catalog).toMatchObject({
        id: expect.stringMatching(/^\w{20}:\w+:catalog\.facebook$/),
        name: 'Facebook',
        data: { roleType: 'APP_ADMIN', appName: 'facebook' },
      });
      const groupName = sim.snapshot().group.find((g) => g.id === group.data.groupId)?.name;
      expect([group.id.split(':')[2], group.name]).toEqual([group.data.groupId, groupName]);
    } finally {
      await sut.close();
    }
  });
});
