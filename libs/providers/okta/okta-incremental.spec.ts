import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startSimulator, type RunningSimulator } from '@libs/simulators/okta/index.js';
import { changeOrgAsAdmins } from '@libs/simulators/okta/testing/org-changes.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import type { DeletedRecord } from '@libs/providers/provider-connector.js';
import { collectParts, cursorsOf } from '@libs/providers/testing/collect-parts.js';
import { mergePart } from '@libs/providers/testing/merge-parts.js';
import { OktaConnector } from './okta-connector.js';
import { OKTA_BACKUP_SCOPES } from './okta-scopes.js';

type Json = Record<string, unknown>;

const sorted = (records: Iterable<{ id: string; name: string | null; data: Json }>) =>
  [...records].map(({ id, name, data }) => ({ id, name, data })).sort((a, b) => (a.id < b.id ? -1 : 1));

describe('OktaConnector incremental collection and deletions', () => {
  let sim: RunningSimulator;
  let okta: SimulatorClient;
  let credentials: { clientId: string; clientSecret: string };

  const connector = () =>
    new OktaConnector({
      orgUrl: sim.baseUrl,
      ...credentials,
      allowedHosts: ['127.0.0.1'],
      caCertPem: sim.caCertPem,
    });
  /** Okta's cursors are instants: those of a base collected at `since`, for its three delta types. */
  const cursorsAt = (since: string) => ({ user: since, group: since, group_membership: since });
  const collect = (sut: OktaConnector, since?: string) =>
    collectParts(sut, since === undefined ? {} : { cursors: cursorsAt(since) });

  beforeAll(async () => {
    sim = await startSimulator({ users: 450, groups: 12, apps: 5, seed: 31 });
    okta = new SimulatorClient(sim);
    const installed = await okta.call('POST', '/integrations/api/v1/api-services', {
      json: { type: 'idp_backup', grantedScopes: OKTA_BACKUP_SCOPES },
    });
    const { id, clientSecret } = installed.body as Json;
    credentials = { clientId: String(id), clientSecret: String(clientSecret) };
  });

  afterAll(async () => {
    await okta?.agent.close();
    await sim?.close();
  });

  it('fetches only what changed since an instant, and a merge with the base equals a full collection', async () => {
    const full = connector();
    const started = Date.now();
    const base = await collect(full);
    await full.close();
    const since = new Date().toISOString();
    // The base's parts give cursors, a minute before their collection began, to the three types
    // Okta lists by change; the test then uses a later instant to see exactly its own changes.
    const given = cursorsOf(base);
    expect(Object.keys(given).sort()).toEqual(['group', 'group_membership', 'user']);
    for (const cursor of Object.values(given)) {
      expect(Date.parse(cursor)).toBeLessThanOrEqual(started - 60_000 + 1000);
      expect(Date.parse(cursor)).toBeGreaterThan(started - 120_000);
    }

    const changes = await changeOrgAsAdmins(sim, okta);
    const { joined, left } = changes;

    const sut = connector();
    try {
      const delta = await collect(sut, since);
      const deletions: DeletedRecord[] = [];
      for await (const deleted of sut.deletedSince(cursorsAt(since))) deletions.push(deleted);

      expect(delta.get('user')?.delta).toEqual({ kind: 'changed' });
      expect(
        delta
          .get('user')
          ?.records.map((r) => r.id)
          .sort(),
      ).toEqual([changes.edited, changes.deprovisioned, changes.created].sort());
      const changedGroups = delta.get('group')?.records.map((r) => r.id);
      expect(changedGroups).toEqual(expect.arrayContaining([joined.groupId, left.groupId]));
      expect(changedGroups).not.toContain(changes.deletedGroup);
      const memberships = delta.get('group_membership');
      expect(memberships?.delta?.kind).toBe('children_of');
      const parentIds = (memberships?.delta as { parentIds: string[] }).parentIds;
      expect(parentIds).toEqual(expect.arrayContaining([joined.groupId, left.groupId]));
      expect(parentIds).not.toContain(changes.deletedGroup);
      for (const [type, part] of delta)
        if (!['user', 'group', 'group_membership'].includes(type))
          expect([type, part.delta]).toEqual([type, undefined]);
      expect(deletions).toEqual(
        expect.arrayContaining([
          { type: 'user', id: changes.purged },
          { type: 'user', id: changes.removed },
          { type: 'group', id: changes.deletedGroup },
          { type: 'group_membership', id: `${left.groupId}:${left.userId}` },
        ]),
      );
      expect(deletions.every((d) => ['user', 'group', 'group_membership'].includes(d.type))).toBe(true);

      const deleted = new Set(deletions.filter((d) => d.type !== 'group_membership').map((d) => d.id));
      for (const d of deletions.filter((d) => d.type === 'group_membership')) deleted.add(d.id);
      const now = sim.snapshot();
      for (const type of ['user', 'group', 'group_membership'] as const)
        expect(sorted(mergePart(base.get(type)!.records, delta.get(type)!, deleted).values())).toEqual(
          sorted(now[type]),
        );

      // One filtered query for users instead of three pages and the DEPROVISIONED search.
      expect(sut.stats().byEndpoint['GET /api/v1/users']).toBe(1);
      expect(sut.stats().byEndpoint['GET /api/v1/logs']).toBe(1);
    } finally {
      await sut.close();
    }
  });

  it('refuses a cursor that is not an ISO instant in the past, or older than the System Log keeps', async () => {
    const sut = connector();
    try {
      const first = (iterable: AsyncIterable<unknown>) => iterable[Symbol.asyncIterator]().next();
      for (const since of [
        'yesterday',
        '2025-13-01T00:00:00Z',
        new Date(Date.now() + 3600_000).toISOString(),
      ]) {
        await expect(first(sut.collect({ cursors: cursorsAt(since) }))).rejects.toMatchObject({
          code: 'invalid_cursor',
        });
        await expect(first(sut.deletedSince(cursorsAt(since)))).rejects.toMatchObject({
          code: 'invalid_cursor',
        });
      }
      const old = new Date(Date.now() - 91 * 24 * 3600_000).toISOString();
      await expect(first(sut.deletedSince({ user: old }))).rejects.toMatchObject({ code: 'cursor_expired' });
      expect(sut.stats().requests).toBe(0);
    } finally {
      await sut.close();
    }
  });

  it('drops the secrets Okta answers and declares what it never answers', async () => {
    const sut = connector();
    try {
      const parts = await collect(sut);
      const oidc = parts.get('app')!.records.find((a) => a.data.signOnMode === 'OPENID_CONNECT')!;
      const served = (await okta.call('GET', `/api/v1/apps/${oidc.id}/credentials/secrets`)).body;
      expect(JSON.stringify(served)).toMatch(/"client_secret":"\w+/);
      const secrets = parts.get('app_client_secret')!.records;
      expect(secrets.length).toBeGreaterThan(0);
      expect(
        secrets.every((s) => !('client_secret' in s.data) && typeof s.data.secret_hash === 'string'),
      ).toBe(true);
      const idps = parts.get('identity_provider')!.records;
      expect(JSON.stringify(idps)).not.toContain('client_secret');
      expect(JSON.stringify(idps)).toContain('client_id');
      expect(sut.notCaptured).toMatchObject({
        user: expect.arrayContaining(['credentials.password.value', '/api/v1/users/{userId}/factors']),
        app_client_secret: ['client_secret'],
        identity_provider: expect.arrayContaining(['protocol.credentials.client.client_secret']),
      });
    } finally {
      await sut.close();
    }
  });
});
