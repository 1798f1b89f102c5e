import { describe, expect, it } from '@jest/globals';
import type { LiveResource, ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { pairedRecord } from '@libs/providers/testing/paired-record.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';

const customProperties = (schema: ResourceRecord) =>
  ((schema.data.definitions as OktaObject).custom as { properties: OktaObject }).properties;
const baseProperties = (schema: ResourceRecord) =>
  ((schema.data.definitions as OktaObject).base as { properties: OktaObject }).properties;

/** Restore writes of user types, schemas, linked objects and profile mappings against the simulator. */
describe('schema restore definitions (simulator over HTTPS)', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;
  const live = (record: ResourceRecord): LiveResource => sut.live(record);
  const match = async (backedUp: ResourceRecord) =>
    pairedRecord(await org.records(backedUp.type as OktaResourceType), sut, backedUp);

  useRestoreTestOrg({ users: 20, groups: 4, apps: 3, seed: 21 }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it('re-creates a deleted user type, then puts its properties on the schema Okta gave the new type', async () => {
    const type = (await org.find('user_type', (t) => t.data.name === 'contractor'))!;
    const schema = (await org.find('user_schema', (s) => s.id === `${type.id}:schema`))!;
    expect(Object.keys(customProperties(schema))).toEqual(['sponsor']);
    await org.call('DELETE', `/api/v1/meta/types/user/${type.id}`);

    const created = await sut.apply({ action: 'create', record: type, with: [] });

    const restored = (await org.find('user_type', (t) => t.id === created.id))!;
    expect(created.id).not.toBe(type.id);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(type));
    const backedUpSchema = sut.rewrite(schema, new Map([[type.id, created.id]]));
    const fresh = (await match(backedUpSchema))!;
    expect(fresh.id).toBe(`${created.id}:schema`);
    expect(sut.fingerprint(fresh)).not.toBe(sut.fingerprint(backedUpSchema));

    await sut.apply({ action: 'update', record: backedUpSchema, live: live(fresh) });

    const schemaNow = (await match(backedUpSchema))!;
    expect(customProperties(schemaNow)).toEqual(customProperties(schema));
    expect(sut.fingerprint(schemaNow)).toBe(sut.fingerprint(schema));
  });

  it('puts back a changed user type, matched by name', async () => {
    const type = (await org.find('user_type', (t) => t.data.name === 'service_account'))!;
    await org.call('POST', `/api/v1/meta/types/user/${type.id}`, { displayName: 'Robots', description: 'x' });
    const changed = (await match(type))!;
    expect(sut.fingerprint(changed)).not.toBe(sut.fingerprint(type));

    await sut.apply({ action: 'update', record: type, live: live(changed) });

    const restored = (await match(type))!;
    expect(restored.data).toMatchObject({
      displayName: type.data.displayName,
      description: type.data.description,
    });
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(type));
  });

  it('puts a changed schema back: custom properties added, changed and removed, a base permission changed', async () => {
    const defaultType = (await org.find('user_type', (t) => t.data.default === true))!;
    const schema = (await org.find('user_schema', (s) => s.id === `${defaultType.id}:schema`))!;
    const path = '/api/v1/meta/schemas/user/default';
    const selfWrite = [{ principal: 'SELF', action: 'READ_WRITE' }];
    await org.call('POST', path, {
      definitions: {
        custom: {
          properties: {
            costCenter: null,
            startDate: { ...(customProperties(schema).startDate as OktaObject), title: 'Joined' },
            badge: { title: 'Badge', type: 'string' },
          },
        },
        base: {
          properties: { title: { ...(baseProperties(schema).title as OktaObject), permissions: selfWrite } },
        },
      },
    });
    const changed = (await match(schema))!;

    await sut.apply({ action: 'update', record: schema, live: live(changed) });

    const restored = (await match(schema))!;
    expect(customProperties(restored)).toEqual(customProperties(schema));
    expect(baseProperties(restored)).toEqual(baseProperties(schema));
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(schema));
  });

  it('sends nothing for a schema that already matches', async () => {
    const schema = (await org.find('group_schema', () => true))!;
    const before = org.sim.requestLog().byEndpoint['POST /api/v1/meta/schemas/group/default'] ?? 0;

    await sut.apply({ action: 'update', record: schema, live: live(schema) });

    expect(org.sim.requestLog().byEndpoint['POST /api/v1/meta/schemas/group/default'] ?? 0).toBe(before);
  });

  it("puts back the group schema's custom properties", async () => {
    const schema = (await org.find('group_schema', () => true))!;
    await org.call('POST', '/api/v1/meta/schemas/group/default', {
      definitions: {
        custom: { properties: { costCenter: null, region: { title: 'Region', type: 'string' } } },
      },
    });
    const changed = (await match(schema))!;
    expect(Object.keys(customProperties(changed))).toEqual(['region']);

    await sut.apply({ action: 'update', record: schema, live: live(changed) });

    const restored = (await match(schema))!;
    expect(customProperties(restored)).toEqual(customProperties(schema));
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(schema));
  });

  it('re-creates a deleted linked object, and replaces a changed one (Okta cannot change one), saying links were dropped', async () => {
    const linked = (await org.find('linked_object', () => true))!;
    await org.call('DELETE', `/api/v1/meta/schemas/user/linkedObjects/${linked.id}`);

    const created = await sut.apply({ action: 'create', record: linked, with: [] });

    expect(created.id).toBe(linked.id);
    expect(sut.fingerprint((await match(linked))!)).toBe(sut.fingerprint(linked));

    await org.call('DELETE', `/api/v1/meta/schemas/user/linkedObjects/${linked.id}`);
    await org.call('POST', '/api/v1/meta/schemas/user/linkedObjects', {
      ...linked.data,
      associated: { ...(linked.data.associated as OktaObject), title: 'Reports' },
    });
    const changed = (await match(linked))!;
    expect(sut.fingerprint(changed)).not.toBe(sut.fingerprint(linked));

    const result = await sut.apply({ action: 'update', record: linked, live: live(changed) });

    expect(sut.fingerprint((await match(linked))!)).toBe(sut.fingerprint(linked));
    expect(result.notes.join(' ')).toMatch(/links between users/);
  });

  it('puts back the property mappings of a changed profile mapping, removing those added since', async () => {
    const mapping = (await org.records('profile_mapping'))[0];
    await org.call('POST', `/api/v1/mappings/${mapping.id}`, {
      properties: { email: null, nickName: { expression: 'appuser.nickname', pushStatus: 'DONT_PUSH' } },
    });
    const changed = (await match(mapping))!;
    expect(sut.fingerprint(changed)).not.toBe(sut.fingerprint(mapping));

    await sut.apply({ action: 'update', record: mapping, live: live(changed) });

    const restored = (await match(mapping))!;
    expect(restored.data.properties).toEqual(mapping.data.properties);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(mapping));
  });

  it("finds the mapping Okta made for a re-created identity provider and puts the backup's properties on it", async () => {
    const mappings = await org.records('profile_mapping');
    const idp = (await org.find('identity_provider', (i) => i.data.type === 'OIDC'))!;
    const mapping = mappings.find((m) => (m.data.source as OktaObject).id === idp.id)!;
    await org.call('DELETE', `/api/v1/idps/${idp.id}`);
    const { name, type, protocol, policy } = idp.data;
    const recreated = await org.call('POST', '/api/v1/idps', { name, type, protocol, policy });

    const backedUp = sut.rewrite(mapping, new Map([[idp.id, String(recreated.id)]]));
    const okta = (await match(backedUp))!;
    expect(okta.id).not.toBe(mapping.id);
    expect(sut.fingerprint(okta)).not.toBe(sut.fingerprint(backedUp));
    await sut.apply({ action: 'update', record: backedUp, live: live(okta) });

    const restored = (await match(backedUp))!;
    expect(restored.data.properties).toEqual(mapping.data.properties);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(backedUp));
  });

  it('deletes a user type and a linked object on prune', async () => {
    const type = (await org.find('user_type', (t) => t.data.name === 'service_account'))!;
    const linked = (await org.find('linked_object', () => true))!;

    await sut.apply({ action: 'delete', type: 'user_type', live: live(type) });
    await sut.apply({ action: 'delete', type: 'linked_object', live: live(linked) });

    expect(await match(type)).toBeUndefined();
    expect(await org.records('linked_object')).toEqual([]);
  });

  it('leaves what Okta creates itself to Okta: the default user type, schemas, profile mappings', async () => {
    const defaultType = (await org.find('user_type', (t) => t.data.default === true))!;
    const custom = (await org.find('user_type', (t) => t.data.default !== true))!;
    const [userSchema] = await org.records('user_schema');
    const [groupSchema] = await org.records('group_schema');
    const [mapping] = await org.records('profile_mapping');

    expect(sut.managedBecause(defaultType)).toMatch(/default user type/);
    expect(sut.managedBecause(custom)).toBeNull();
    for (const record of [userSchema, groupSchema, mapping])
      expect(sut.managedBecause(record)).not.toBeNull();
    expect(sut.support('user_schema')).toMatchObject({ create: false, update: true, delete: false });
    expect(sut.support('profile_mapping')).toMatchObject({ create: false, update: true, delete: false });
    expect(sut.support('linked_object')).toMatchObject({ create: true, update: true, delete: true });
  });
});
