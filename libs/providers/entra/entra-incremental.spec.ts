import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startEntraSimulator, type RunningEntraSimulator } from '@libs/simulators/entra/index.js';
import { DIRECTORY_WRITER_ROLES, graphClient } from '@libs/simulators/entra/testing/graph-client.js';
import { changeTenantAsAdmins } from '@libs/simulators/entra/testing/tenant-changes.js';
import type { DeletedRecord } from '@libs/providers/provider-connector.js';
import { collectParts, cursorsOf } from '@libs/providers/testing/collect-parts.js';
import { mergePart } from '@libs/providers/testing/merge-parts.js';

import { EntraConnector } from './entra-connector.js';
import { ENTRA_RESOURCE_TYPES, entraBackupPermissions } from './entra-resource-catalog.js';

type Json = Record<string, unknown>;

const sorted = (records: Iterable<{ id: string; name: string | null; data: Json }>) =>
  [...records].map(({ id, name, data }) => ({ id, name, data })).sort((a, b) => (a.id < b.id ? -1 : 1));

describe('EntraConnector incremental collection through delta queries', () => {
  let sim: RunningEntraSimulator;
  let app: { clientId: string; clientSecret: string };

  const connector = () =>
    new EntraConnector({
      graphUrl: sim.baseUrl,
      tenantId: sim.tenantId,
      ...app,
      allowedHosts: ['127.0.0.1'],
      caCertPem: sim.caCertPem,
    });
  const deletedSince = async (sut: EntraConnector, cursors: Record<string, string>) => {
    const deletions: DeletedRecord[] = [];
    for await (const deleted of sut.deletedSince(cursors)) deletions.push(deleted);
    return deletions;
  };

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 40, groups: 4, seed: 12 });
    app = sim.registerApp(entraBackupPermissions());
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('fetches only what changed since the base, and a merge with the base equals a full collection', async () => {
    const full = connector();
    const base = await collectParts(full);
    await full.close();
    const cursors = cursorsOf(base);
    expect(Object.keys(cursors).sort()).toEqual([
      'administrative_unit',
      'application',
      'group',
      'group_membership',
      'oauth2_permission_grant',
      'service_principal',
      'user',
    ]);
    const userCursor = JSON.parse(cursors.user) as { deltaLink: string; since: string };
    expect(new URL(userCursor.deltaLink).pathname).toBe('/v1.0/users/delta');
    expect(Date.parse(userCursor.since)).toBeLessThanOrEqual(Date.now());
    expect(cursors.group_membership).toBe(cursors.group);

    const writer = await graphClient(sim, DIRECTORY_WRITER_ROLES);
    const changes = await changeTenantAsAdmins(sim, writer).finally(() => writer.close());

    const sut = connector();
    try {
      const deletions = await deletedSince(sut, cursors);
      expect(deletions).toEqual(
        expect.arrayContaining([
          { type: 'user', id: changes.deletedUser },
          { type: 'group', id: changes.deletedGroup },
          { type: 'group_membership', id: changes.removedMembership },
          { type: 'service_principal', id: changes.deletedServicePrincipal },
        ]),
      );
      expect(deletions).not.toContainEqual({ type: 'user', id: changes.restoredUser });
      const delta = await collectParts(sut, { cursors });
      expect(delta.get('user')?.delta).toEqual({ kind: 'changed' });
      expect(
        delta
          .get('user')
          ?.records.map((r) => r.id)
          .sort(),
      ).toEqual([changes.updatedUser, changes.createdUser, changes.restoredUser].sort());
      expect(delta.get('group')?.records.map((r) => r.id)).toEqual([changes.createdGroup]);
      expect(delta.get('group_membership')?.delta).toEqual({ kind: 'changed' });
      expect(delta.get('application')?.records.map((r) => r.id)).toEqual([changes.updatedApplication]);
      expect(delta.get('service_principal')).toMatchObject({ delta: { kind: 'changed' }, records: [] });
      expect(delta.get('administrative_unit')?.records.map((r) => r.id)).toEqual([
        changes.updatedAdministrativeUnit,
      ]);
      expect(
        delta
          .get('oauth2_permission_grant')
          ?.records.map((r) => r.id)
          .sort(),
      ).toEqual([changes.updatedGrant, changes.createdGrant].sort());
      for (const type of ENTRA_RESOURCE_TYPES.filter((t) => !(t in cursors)))
        expect([type, delta.get(type)?.delta, delta.get(type)?.cursor]).toEqual([type, undefined, undefined]);

      const deleted = new Set(deletions.map((d) => d.id));
      const now = sim.snapshot();
      for (const type of ENTRA_RESOURCE_TYPES)
        expect({
          type,
          records: sorted(mergePart(base.get(type)!.records, delta.get(type)!, deleted).values()),
        }).toEqual({ type, records: sorted(now[type]) });
      // One round per delta function, read once for deletions and changes: no user listing.
      expect(sut.stats().byEndpoint['GET /v1.0/users/delta']).toBe(1);
      expect(sut.stats().byEndpoint['GET /v1.0/groups/delta']).toBe(1);
      // Users come by delta; their managers, licences and directory extension values (no delta
      // of their own) in one listing each.
      expect(sut.stats().byEndpoint['GET /v1.0/users']).toBe(3);
      expect(sut.stats().byEndpoint['GET /v1.0/applications/delta']).toBe(1);
      expect(sut.stats().byEndpoint['GET /v1.0/oauth2PermissionGrants/delta']).toBe(1);
      // The changed users, groups, applications, units and grants read whole in one JSON batch
      // each (the service principals' round names only a removal).
      expect(sut.stats().byEndpoint['POST /v1.0/$batch']).toBe(5);
      expect(sim.requestCounts()['GET /v1.0/users/{id}']).toBe(3);

      // The next links see nothing new.
      const next = cursorsOf(delta);
      expect(next.user).not.toBe(cursors.user);
      const quiet = await collectParts(sut, { cursors: next });
      expect(quiet.get('user')?.records).toEqual([]);
      expect(quiet.get('group_membership')?.records).toEqual([]);
    } finally {
      await sut.close();
    }
  });

  it('reports an expired link (410) from deletedSince, and collects its part in full', async () => {
    const full = connector();
    const cursors = cursorsOf(await collectParts(full, { types: ['user'] }));
    await full.close();
    sim.resetDeltaState();
    const sut = connector();
    try {
      await expect(deletedSince(sut, cursors)).rejects.toMatchObject({ code: 'cursor_expired' });
      const parts = await collectParts(sut, { types: ['user'], cursors });
      expect(parts.get('user')?.delta).toBeUndefined();
      expect(sorted(parts.get('user')!.records)).toEqual(sorted(sim.snapshot().user));
      expect(parts.get('user')?.cursor).toMatch(/\/v1\.0\/users\/delta\?/);
    } finally {
      await sut.close();
    }
  });

  it('lists the delta types in full after a native recovery since the base, which writes no delta records', async () => {
    const full = connector();
    const cursors = cursorsOf(await collectParts(full, { types: ['user', 'group', 'group_membership'] }));
    await full.close();
    const [user] = sim.snapshot().user;
    sim.recoverNatively([{ collection: 'users', id: user.id, properties: { department: 'Recovered' } }]);
    const sut = connector();
    try {
      await expect(deletedSince(sut, cursors)).rejects.toMatchObject({ code: 'cursor_expired' });
      const parts = await collectParts(sut, { types: ['user', 'group', 'group_membership'], cursors });
      for (const type of ['user', 'group', 'group_membership'])
        expect({ type, delta: parts.get(type)?.delta, records: sorted(parts.get(type)!.records) }).toEqual({
          type,
          delta: undefined,
          records: sorted(sim.snapshot()[type]),
        });
      expect(parts.get('user')?.records.find((r) => r.id === user.id)?.data.department).toBe('Recovered');
      expect(sut.stats().byEndpoint['GET /v1.0/directory/recovery/jobs']).toBe(1);
    } finally {
      await sut.close();
    }
  });

  it('refuses a cursor that is not a delta link of its type on this tenant', async () => {
    const sut = connector();
    try {
      const first = (iterable: AsyncIterable<unknown>) => iterable[Symbol.asyncIterator]().next();
      const refused: Array<Record<string, string>> = [
        { user: '2025-06-01T00:00:00Z' },
        { user: `${sim.baseUrl}/v1.0/users/delta?$deltatoken=x` },
        {
          user: JSON.stringify({
            deltaLink: `${sim.baseUrl}/v1.0/groups/delta?$deltatoken=x`,
            since: '2026-01-01T00:00:00Z',
          }),
        },
        { user: JSON.stringify({ deltaLink: `${sim.baseUrl}/v1.0/users/delta?$deltatoken=x` }) },
        {
          user: JSON.stringify({
            deltaLink: 'https://graph.example.com/v1.0/users/delta?$deltatoken=x',
            since: '2026-01-01T00:00:00Z',
          }),
        },
        { conditional_access_policy: `${sim.baseUrl}/v1.0/identity/conditionalAccess/policies` },
      ];
      for (const cursors of refused) {
        await expect(first(sut.collect({ cursors }))).rejects.toMatchObject({ code: 'invalid_cursor' });
        await expect(first(sut.deletedSince(cursors))).rejects.toMatchObject({ code: 'invalid_cursor' });
      }
    } finally {
      await sut.close();
    }
  });
});
