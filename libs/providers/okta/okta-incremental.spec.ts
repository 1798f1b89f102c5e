import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Agent, request } from 'undici';
import { startSimulator, type RunningSimulator, type SnapshotRecord } from '@libs/okta-simulator/index.js';
import type { DeletedRecord } from '@libs/providers/provider-connector.js';
import { collectParts } from '@libs/providers/testing/collect-parts.js';
import { mergePart } from '@libs/providers/testing/merge-parts.js';
import { OktaConnector } from './okta-connector.js';
import { OKTA_BACKUP_SCOPES } from './okta-scopes.js';

type Json = Record<string, unknown>;

const sorted = (records: Iterable<{ id: string; name: string | null; data: Json }>) =>
  [...records].map(({ id, name, data }) => ({ id, name, data })).sort((a, b) => (a.id < b.id ? -1 : 1));

describe('OktaConnector incremental collection and deletions', () => {
  let sim: RunningSimulator;
  let dispatcher: Agent;
  let credentials: { clientId: string; clientSecret: string };

  const admin = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, json?: unknown) => {
    const response = await request(`${sim.baseUrl}${path}`, {
      method,
      dispatcher,
      headers: {
        authorization: `SSWS ${sim.adminToken}`,
        accept: 'application/json',
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await response.body.text();
    if (response.statusCode >= 300)
      throw new Error(`${method} ${path} answered ${response.statusCode}: ${text}`);
    return (text ? JSON.parse(text) : {}) as Json;
  };
  const connector = () =>
    new OktaConnector({
      orgUrl: sim.baseUrl,
      ...credentials,
      allowedHosts: ['127.0.0.1'],
      caCertPem: sim.caCertPem,
    });
  const collect = (sut: OktaConnector, since?: string) => collectParts(sut, { since });

  beforeAll(async () => {
    sim = await startSimulator({ users: 450, groups: 12, apps: 5, seed: 31 });
    dispatcher = new Agent({ connect: { ca: sim.caCertPem } });
    const installed = await admin('POST', '/integrations/api/v1/api-services', {
      type: 'idp_backup',
      grantedScopes: OKTA_BACKUP_SCOPES,
    });
    credentials = { clientId: String(installed.id), clientSecret: String(installed.clientSecret) };
  });

  afterAll(async () => {
    await dispatcher?.close();
    await sim?.close();
  });

  it('fetches only what changed since an instant, and a merge with the base equals a full collection', async () => {
    const full = connector();
    const base = await collect(full);
    await full.close();
    const since = new Date().toISOString();

    const snapshot = sim.snapshot();
    const active = snapshot.user.filter((u) => u.data.status === 'ACTIVE');
    const deprovisioned = snapshot.user.find((u) => u.data.status === 'DEPROVISIONED') as SnapshotRecord;
    const [groupA, groupB, doomed] = snapshot.group.filter((g) => g.data.type === 'OKTA_GROUP');
    const outsider = active.find(
      (u) => !snapshot.group_membership.some((m) => m.id === `${groupA.id}:${u.id}`),
    )!;
    const leaving = snapshot.group_membership.find((m) => m.id.startsWith(`${groupB.id}:`))!.id.split(':')[1];
    await admin('POST', `/api/v1/users/${active[0].id}`, { profile: { title: 'Changed' } });
    await admin('DELETE', `/api/v1/users/${active[1].id}`);
    await admin('DELETE', `/api/v1/users/${deprovisioned.id}`);
    const created = await admin('POST', '/api/v1/users?activate=false', {
      profile: {
        firstName: 'New',
        lastName: 'Hire',
        email: 'new.hire@example.com',
        login: 'new.hire@example.com',
      },
    });
    await admin('PUT', `/api/v1/groups/${groupA.id}`, { profile: { name: 'Renamed A' } });
    await admin('PUT', `/api/v1/groups/${groupA.id}/users/${outsider.id}`);
    await admin('DELETE', `/api/v1/groups/${groupB.id}/users/${leaving}`);
    await admin('DELETE', `/api/v1/groups/${doomed.id}`);

    const sut = connector();
    try {
      const delta = await collect(sut, since);
      const deletions: DeletedRecord[] = [];
      for await (const deleted of sut.deletedSince(since)) deletions.push(deleted);

      expect(delta.get('user')?.delta).toEqual({ kind: 'changed' });
      expect(
        delta
          .get('user')
          ?.records.map((r) => r.id)
          .sort(),
      ).toEqual([active[0].id, active[1].id, String(created.id)].sort());
      const changedGroups = delta.get('group')?.records.map((r) => r.id);
      expect(changedGroups).toEqual(expect.arrayContaining([groupA.id, groupB.id]));
      expect(changedGroups).not.toContain(doomed.id);
      const memberships = delta.get('group_membership');
      expect(memberships?.delta?.kind).toBe('children_of');
      const parentIds = (memberships?.delta as { parentIds: string[] }).parentIds;
      expect(parentIds).toEqual(expect.arrayContaining([groupA.id, groupB.id]));
      expect(parentIds).not.toContain(doomed.id);
      for (const [type, part] of delta)
        if (!['user', 'group', 'group_membership'].includes(type))
          expect([type, part.delta]).toEqual([type, undefined]);
      expect(deletions).toEqual(
        expect.arrayContaining([
          { type: 'user', id: deprovisioned.id },
          { type: 'group', id: doomed.id },
          { type: 'group_membership', id: `${groupB.id}:${leaving}` },
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

  it('refuses a since that is not an ISO instant in the past, or older than the System Log keeps', async () => {
    const sut = connector();
    try {
      const first = (iterable: AsyncIterable<unknown>) => iterable[Symbol.asyncIterator]().next();
      for (const since of [
        'yesterday',
        '2025-13-01T00:00:00Z',
        new Date(Date.now() + 3600_000).toISOString(),
      ]) {
        await expect(first(sut.collect({ since }))).rejects.toMatchObject({ code: 'invalid_since' });
        await expect(first(sut.deletedSince(since))).rejects.toMatchObject({ code: 'invalid_since' });
      }
      const old = new Date(Date.now() - 91 * 24 * 3600_000).toISOString();
      await expect(first(sut.deletedSince(old))).rejects.toMatchObject({ code: 'since_too_old' });
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
      const served = await admin('GET', `/api/v1/apps/${oidc.id}/credentials/secrets`);
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
