import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Agent, request } from 'undici';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { createConnection, openSnapshot, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

/** The Okta types beyond users, groups, apps, policies, authorization servers and network. */
const NEW_TYPES = [
  'user_type',
  'user_schema',
  'group_schema',
  'linked_object',
  'group_owner',
  'authenticator',
  'behavior',
  'app_feature',
  'app_user_schema',
  'app_sign_on_policy',
  'app_signing_key',
  'app_client_secret',
  'identity_provider',
  'profile_mapping',
  'event_hook',
  'inline_hook',
  'brand',
  'brand_theme',
  'email_template',
  'email_customization',
  'brand_page',
  'custom_domain',
  'custom_admin_role',
  'custom_admin_role_permission',
  'resource_set',
  'resource_set_resource',
  'resource_set_binding',
  'resource_set_binding_member',
  'admin_role_assignment',
  'admin_role_target',
];

/** Property names that hold secrets: none may appear in a stored record. */
const SECRET_KEYS = new Set(['client_secret', 'clientSecret', 'secretKey', 'privateKey', 'private_key']);

/** Paths (`a.b.c`) of secret-looking properties in `value`: secret names, or a `value` beside `authScheme`/`password`. */
function secretPaths(value: unknown, path: string[] = []): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => secretPaths(item, [...path, String(i)]));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
    const here = [...path, key];
    const parent = path[path.length - 1];
    const secret =
      SECRET_KEYS.has(key) || (key === 'value' && (parent === 'authScheme' || parent === 'password'));
    return secret ? [here.join('.')] : secretPaths(child, here);
  });
}

describe('coverage: every Okta type in docs/resource-types.md is backed up, without secrets', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;
  let backup: BackupDto;
  const stored = new Map<string, Map<string, ResourceRecord>>();

  beforeAll(async () => {
    org = await startTestOrg({ users: 300, groups: 12, apps: 10, seed: 5 });
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    backup = await runBackup(ctx, admin.token, { connectionId });
    const reader = await openSnapshot(ctx, backup.storage_key);
    for (const type of reader.types) {
      const records = new Map<string, ResourceRecord>();
      for await (const record of reader.readPart(type)) records.set(record.id, record);
      stored.set(type, records);
    }
  }, 120_000);

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('holds every new type with the records of the org, by id and content', () => {
    expect(backup.status).toBe('completed');
    const expected = org.sim.snapshot() as Record<string, Array<{ id: string; data: unknown }>>;
    for (const type of NEW_TYPES) {
      const records = stored.get(type);
      expect([type, records?.size]).toEqual([type, expected[type].length]);
      expect([type, backup.resource_counts[type]]).toEqual([type, expected[type].length]);
      for (const object of expected[type])
        expect([type, records?.get(object.id)?.data]).toEqual([type, object.data]);
    }
  });

  it('has the counts the generated org was built with', () => {
    const count = (type: string) => stored.get(type)?.size;
    const apps = [...(stored.get('app')?.values() ?? [])];
    const mode = (signOnMode: string) => apps.filter((app) => app.data.signOnMode === signOnMode).length;
    expect(apps).toHaveLength(10);
    expect({
      user_type: count('user_type'),
      user_schema: count('user_schema'),
      group_schema: count('group_schema'),
      linked_object: count('linked_object'),
      authenticator: count('authenticator'),
      behavior: count('behavior'),
      identity_provider: count('identity_provider'),
      event_hook: count('event_hook'),
      inline_hook: count('inline_hook'),
      brand: count('brand'),
      brand_theme: count('brand_theme'),
      email_template: count('email_template'),
      email_customization: count('email_customization'),
      brand_page: count('brand_page'),
      custom_domain: count('custom_domain'),
      custom_admin_role: count('custom_admin_role'),
      custom_admin_role_permission: count('custom_admin_role_permission'),
      resource_set: count('resource_set'),
      resource_set_resource: count('resource_set_resource'),
      resource_set_binding: count('resource_set_binding'),
      resource_set_binding_member: count('resource_set_binding_member'),
      admin_role_assignment: count('admin_role_assignment'),
      admin_role_target: count('admin_role_target'),
      app_user_schema: count('app_user_schema'),
      app_sign_on_policy: count('app_sign_on_policy'),
      app_signing_key: count('app_signing_key'),
      app_client_secret: count('app_client_secret'),
      app_feature: count('app_feature'),
      profile_mapping: count('profile_mapping'),
    }).toEqual({
      user_type: 3,
      user_schema: 3,
      group_schema: 1,
      linked_object: 1,
      authenticator: 6,
      behavior: 4,
      identity_provider: 3,
      event_hook: 2,
      inline_hook: 2,
      brand: 2,
      brand_theme: 2,
      email_template: 40,
      email_customization: 3,
      // Two sign-out pages (every brand has one), a customized sign-in page and error page.
      brand_page: 4,
      custom_domain: 1,
      custom_admin_role: 2,
      custom_admin_role_permission: 5,
      resource_set: 1,
      resource_set_resource: 2,
      resource_set_binding: 1,
      resource_set_binding_member: 2,
      // SUPER_ADMIN, ORG_ADMIN, HELP_DESK_ADMIN, READ_ONLY_ADMIN, APP_ADMIN, a custom role: users;
      // USER_ADMIN and the custom role: groups.
      admin_role_assignment: 8,
      // HELP_DESK_ADMIN limited to a group, USER_ADMIN to two, APP_ADMIN to an app and an OIN app.
      admin_role_target: 5,
      app_user_schema: 10,
      app_sign_on_policy: 10,
      app_signing_key: mode('SAML_2_0') + mode('OPENID_CONNECT'),
      app_client_secret: mode('OPENID_CONNECT'),
      app_feature: 2 * mode('SAML_2_0'),
      profile_mapping: 3 + mode('SAML_2_0'),
    });
    expect(count('group_owner')).toBeGreaterThanOrEqual(12);
  });

  it('stores no secret in any record of any type, although the org answers some', async () => {
    const found = [...stored.values()].flatMap((records) =>
      [...records.values()].flatMap((record) =>
        secretPaths(record.data).map((path) => `${record.type} ${record.id} ${path}`),
      ),
    );
    expect(found).toEqual([]);

    // The org does answer secrets: an OIDC app's client secrets and the IdPs' client secrets.
    const dispatcher = new Agent({ connect: { ca: org.sim.caCertPem } });
    const get = async (path: string) =>
      (await request(`${org.sim.baseUrl}${path}`, {
        dispatcher,
        headers: { authorization: `SSWS ${org.sim.adminToken}`, accept: 'application/json' },
      }).then((response) => response.body.text())) as string;
    try {
      const [secret] = stored.get('app_client_secret')?.values() ?? [];
      expect(await get(`/api/v1/apps/${secret.id.split(':')[0]}/credentials/secrets`)).toContain(
        '"client_secret"',
      );
      expect(await get('/api/v1/idps?limit=200')).toContain('"client_secret"');
    } finally {
      await dispatcher.close();
    }
  });

  it('backs up categories of the new types alone through include', async () => {
    const partial = await runBackup(ctx, admin.token, { connectionId, include: ['admin_roles', 'branding'] });
    expect(partial.status).toBe('completed');
    expect(partial.resource_types).toEqual([
      'brand',
      'brand_theme',
      'email_template',
      'email_customization',
      'brand_page',
      'custom_domain',
      'custom_admin_role',
      'custom_admin_role_permission',
      'resource_set',
      'resource_set_resource',
      'resource_set_binding',
      'resource_set_binding_member',
      'admin_role_assignment',
      'admin_role_target',
    ]);
    expect(partial.resource_counts.admin_role_assignment).toBe(8);
    expect(partial.resource_counts.admin_role_target).toBe(5);
  });
});
