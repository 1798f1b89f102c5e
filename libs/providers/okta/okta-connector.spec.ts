import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { Agent, request } from 'undici';
import { startSimulator, type RunningSimulator, type SnapshotRecord } from '@libs/simulators/okta/index.js';
import type { ResourcePart } from '@libs/providers/provider-connector.js';
import {
  ProviderAuthError,
  ProviderError,
  ProviderHostNotAllowedError,
} from '@libs/providers/provider-errors.js';
import { OKTA_RESOURCE_TYPES, type OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { OktaConnector, type OktaConnectorOptions } from './okta-connector.js';
import { collectRecords } from '@libs/providers/testing/collect-parts.js';
import { PAGE_LIMITS } from './okta-endpoints.js';
import { OKTA_BACKUP_SCOPES } from './okta-scopes.js';

const ALLOWED_HOSTS = ['*.okta.com', '*.oktapreview.com', '*.okta-emea.com', '127.0.0.1'];

interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** Calls the simulator as an Okta admin would (SSWS token), trusting its CA only. */
class OrgAdmin {
  private readonly dispatcher: Agent;

  constructor(private readonly sim: RunningSimulator) {
    this.dispatcher = new Agent({ connect: { ca: sim.caCertPem } });
  }

  async call(method: 'GET' | 'POST' | 'DELETE', path: string, json?: unknown) {
    const response = await request(`${this.sim.baseUrl}${path}`, {
      method,
      dispatcher: this.dispatcher,
      headers: {
        authorization: `SSWS ${this.sim.adminToken}`,
        accept: 'application/json',
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await response.body.text();
    return { status: response.statusCode, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  }

  /** Installs an API service integration (OpenAPI createApiServiceIntegrationInstance). */
  async installIntegration(grantedScopes: readonly string[]): Promise<Credentials> {
    const { status, body } = await this.call('POST', '/integrations/api/v1/api-services', {
      type: 'idp_backup',
      grantedScopes,
    });
    if (status !== 201) throw new Error(`Installing the integration answered ${status}`);
    return { clientId: String(body.id), clientSecret: String(body.clientSecret) };
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}

function connectorFor(
  sim: RunningSimulator,
  credentials: Credentials,
  options: Partial<OktaConnectorOptions> = {},
): OktaConnector {
  return new OktaConnector({
    orgUrl: sim.baseUrl,
    ...credentials,
    allowedHosts: ALLOWED_HOSTS,
    caCertPem: sim.caCertPem,
    ...options,
  });
}

async function drain(part: ResourcePart): Promise<number> {
  let count = 0;
  for await (const _record of part.records) count++;
  return count;
}

function collectAll(
  connector: OktaConnector,
  types?: readonly OktaResourceType[],
): Promise<Map<string, ResourceRecord[]>> {
  return collectRecords(connector, { types });
}

/** Same ids, names and data as the org holds: nothing missing, nothing extra, no duplicate. */
function expectSameRecords(
  type: OktaResourceType,
  actual: ResourceRecord[],
  expected: SnapshotRecord[],
): void {
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  expect(actual.every((record) => record.type === type)).toBe(true);
  expect({
    type,
    records: actual.map(({ id, name, data }) => ({ id, name, data })).sort(byId),
  }).toStrictEqual({
    type,
    records: [...expected].sort(byId),
  });
}

function expectSameOrg(parts: Map<string, ResourceRecord[]>, sim: RunningSimulator): void {
  const snapshot = sim.snapshot();
  expect([...parts.keys()]).toEqual([...OKTA_RESOURCE_TYPES]);
  for (const type of OKTA_RESOURCE_TYPES) expectSameRecords(type, parts.get(type) ?? [], snapshot[type]);
}

/** A loopback port with nothing listening. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('OktaConnector against the Okta simulator', () => {
  let sim: RunningSimulator;
  let admin: OrgAdmin;
  let limitedSim: RunningSimulator;
  let credentials: Credentials;
  let limitedCredentials: Credentials;

  beforeAll(async () => {
    // Enterprise limits: the apps bucket allows 100 requests a minute. Spend it all now, so the
    // backup that runs last meets an empty bucket and must wait for its reset.
    limitedSim = await startSimulator({ users: 120, groups: 8, apps: 6, seed: 11, rateLimits: 'enterprise' });
    const limitedAdmin = new OrgAdmin(limitedSim);
    limitedCredentials = await limitedAdmin.installIntegration(OKTA_BACKUP_SCOPES);
    for (let spent = 0; spent < 100; spent++) await limitedAdmin.call('GET', '/api/v1/apps?limit=1');
    await limitedAdmin.close();

    sim = await startSimulator({ users: 450, groups: 20, apps: 6, seed: 7, rateLimits: 'none' });
    admin = new OrgAdmin(sim);
    credentials = await admin.installIntegration(OKTA_BACKUP_SCOPES);
  });

  afterAll(async () => {
    await admin?.close();
    await Promise.all([sim?.close(), limitedSim?.close()]);
  });

  it('collects every type exactly as the org holds it, DEPROVISIONED users included', async () => {
    const sut = connectorFor(sim, credentials);
    try {
      const parts = await collectAll(sut);

      expectSameOrg(parts, sim);
      const users = sim.snapshot().user;
      const deprovisioned = users.filter((user) => user.data.status === 'DEPROVISIONED').length;
      expect(deprovisioned).toBeGreaterThan(0);
      // Several pages of the default list, then the DEPROVISIONED search.
      const listed = users.length - deprovisioned;
      expect(listed).toBeGreaterThan(2 * PAGE_LIMITS.users);
      expect(sut.stats().byEndpoint['GET /api/v1/users']).toBe(
        Math.ceil(listed / PAGE_LIMITS.users) + Math.max(1, Math.ceil(deprovisioned / PAGE_LIMITS.users)),
      );
      expect(sut.stats()).toMatchObject({ status429: 0, retries: 0 });
      expect(sut.stats().byEndpoint['POST /oauth2/v1/token']).toBe(1);
      // Roles are asked of admins only: users named by iam/assignees, groups whose stats say so.
      const holders = (prefix: string) =>
        new Set(
          sim
            .snapshot()
            .admin_role_assignment.filter((r) => r.id.startsWith(prefix))
            .map((r) => r.id.split(':')[0]),
        ).size;
      expect(holders('00g')).toBeGreaterThan(0);
      expect(sut.stats().byEndpoint).toMatchObject({
        'GET /api/v1/users/{userId}/roles': holders('00u'),
        'GET /api/v1/groups/{groupId}/roles': holders('00g'),
      });
    } finally {
      await sut.close();
    }
  });

  it('collects every part at the same time with the same records and requests as one after another', async () => {
    const inOrder = connectorFor(sim, credentials);
    const together = connectorFor(sim, credentials);
    try {
      await collectAll(inOrder);
      const parts = new Map<string, ResourceRecord[]>();
      const reading: Promise<void>[] = [];
      for await (const part of together.collect()) {
        const records: ResourceRecord[] = [];
        parts.set(part.type, records);
        reading.push(
          (async () => {
            for await (const record of part.records) records.push(record);
          })(),
        );
      }
      await Promise.all(reading);

      expectSameOrg(parts, sim);
      // Children waited for their parents' passes instead of listing the parents again.
      expect(together.stats().byEndpoint).toEqual(inOrder.stats().byEndpoint);
    } finally {
      await Promise.all([inOrder.close(), together.close()]);
    }
  });

  it('fails a child part waiting for its parent when the parent part is given up', async () => {
    const sut = connectorFor(sim, credentials);
    try {
      const parts = sut.collect({ types: ['group', 'group_membership'] })[Symbol.asyncIterator]();
      const groups = (await parts.next()).value as ResourcePart;
      const memberships = (await parts.next()).value as ResourcePart;
      const members = drain(memberships);
      const records = groups.records[Symbol.asyncIterator]();
      await records.next();
      await records.return?.(undefined);

      await expect(members).rejects.toThrow(/group listing stopped before its end/);
      expect(sut.stats().byEndpoint['GET /api/v1/groups/{groupId}/users']).toBeUndefined();
    } finally {
      await sut.close();
    }
  });

  it('streams: the first users arrive before the next page is requested', async () => {
    const sut = connectorFor(sim, credentials);
    try {
      const parts = sut.collect({ types: ['user'] })[Symbol.asyncIterator]();
      const part = (await parts.next()).value as { records: AsyncIterable<ResourceRecord> };
      const records = part.records[Symbol.asyncIterator]();
      await records.next();
      expect(sut.stats().byEndpoint['GET /api/v1/users']).toBe(1);
      await records.return?.(undefined);
    } finally {
      await sut.close();
    }
  });

  it('collects a child type alone, listing its parents for their ids', async () => {
    const sut = connectorFor(sim, credentials);
    try {
      const parts = await collectAll(sut, ['authorization_server_policy_rule', 'group_membership']);

      expect([...parts.keys()]).toEqual(['group_membership', 'authorization_server_policy_rule']);
      const snapshot = sim.snapshot();
      expectSameRecords('group_membership', parts.get('group_membership') ?? [], snapshot.group_membership);
      expectSameRecords(
        'authorization_server_policy_rule',
        parts.get('authorization_server_policy_rule') ?? [],
        snapshot.authorization_server_policy_rule,
      );
    } finally {
      await sut.close();
    }
  });

  it('refuses a wrong secret with ProviderAuthError, saying what Okta answered', async () => {
    const secret = 'not-the-secret-0123456789';
    const sut = connectorFor(sim, { clientId: credentials.clientId, clientSecret: secret });
    try {
      const error = await sut.verifyCredentials().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderAuthError);
      expect((error as Error).message).toMatch(/invalid_client/);
      expect((error as Error).message).not.toContain(secret);
    } finally {
      await sut.close();
    }
  });

  it('fetches a new token once when Okta answers 401, then reports the refusal', async () => {
    const integration = await admin.installIntegration(OKTA_BACKUP_SCOPES);
    const sut = connectorFor(sim, integration);
    try {
      const parts = sut.collect({ types: ['group', 'group_rule'] })[Symbol.asyncIterator]();
      await drain((await parts.next()).value as ResourcePart);
      // Removing the integration revokes its tokens and its client.
      await admin.call('DELETE', `/integrations/api/v1/api-services/${integration.clientId}`);

      await expect(drain((await parts.next()).value as ResourcePart)).rejects.toThrow(ProviderAuthError);
      expect(sut.stats().byEndpoint).toMatchObject({
        'POST /oauth2/v1/token': 2,
        'GET /api/v1/groups/rules': 1,
      });
    } finally {
      await sut.close();
    }
  });

  it('stops at the next request once the signal aborts', async () => {
    const sut = connectorFor(sim, credentials);
    const controller = new AbortController();
    let seen = 0;
    try {
      const run = async () => {
        for await (const part of sut.collect({ types: ['user', 'group_rule'], signal: controller.signal })) {
          for await (const _record of part.records) {
            seen++;
            controller.abort(new Error('backup cancelled'));
          }
        }
      };
      await expect(run()).rejects.toThrow('backup cancelled');
      // The page in hand is handed out; no further page is requested.
      expect(seen).toBe(PAGE_LIMITS.users);
      expect(sut.stats().byEndpoint['GET /api/v1/users']).toBe(1);
    } finally {
      await sut.close();
    }
  });

  it('refuses a scope the integration was not granted, naming it', async () => {
    const granted = OKTA_BACKUP_SCOPES.filter((scope) => scope !== 'okta.policies.read');
    const sut = connectorFor(sim, await admin.installIntegration(granted));
    try {
      const error = await sut.verifyCredentials().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderAuthError);
      expect((error as Error).message).toMatch(/invalid_scope/);
      expect((error as Error).message).toContain('okta.policies.read');
    } finally {
      await sut.close();
    }
  });

  it('refuses an org host off the allow-list, or a bad org URL, before any request', () => {
    const before = sim.requestLog().total;
    const build =
      (orgUrl: string, allowedHosts = ALLOWED_HOSTS) =>
      () =>
        new OktaConnector({ orgUrl, ...credentials, allowedHosts, caCertPem: sim.caCertPem });

    expect(build(sim.baseUrl, ['*.okta.com'])).toThrow(ProviderHostNotAllowedError);
    for (const orgUrl of [
      sim.baseUrl.replace('https:', 'http:'),
      `${sim.baseUrl}/api`,
      `${sim.baseUrl}?x=1`,
      'okta',
    ]) {
      expect(build(orgUrl)).toThrow(expect.objectContaining({ code: 'invalid_org_url' }));
    }
    expect(sim.requestLog().total).toBe(before);
  });

  it('reports an unreachable org and an untrusted certificate as provider_unreachable', async () => {
    const refused = new OktaConnector({
      orgUrl: `https://127.0.0.1:${await closedPort()}`,
      ...credentials,
      allowedHosts: ALLOWED_HOSTS,
      maxAttempts: 2,
      retryBaseDelayMs: 10,
    });
    const untrusted = new OktaConnector({ orgUrl: sim.baseUrl, ...credentials, allowedHosts: ALLOWED_HOSTS });
    try {
      await expect(refused.verifyCredentials()).rejects.toThrow(
        expect.objectContaining({ code: 'provider_unreachable', message: expect.stringMatching(/refused/) }),
      );
      expect(refused.stats()).toMatchObject({ requests: 2, retries: 1 });
      const error = await untrusted.verifyCredentials().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'provider_unreachable', message: expect.stringMatching(/TLS/) });
      expect(untrusted.stats().retries).toBe(0);
    } finally {
      await Promise.all([refused.close(), untrusted.close()]);
    }
  });

  it('retries 5xx, dropped connections and cut-off bodies without losing data', async () => {
    const faulty = await startSimulator({
      users: 250,
      groups: 10,
      apps: 4,
      seed: 3,
      faults: { errorRate: 0.06, dropRate: 0.04, truncateRate: 0.04, seed: 5 },
    });
    const faultyAdmin = new OrgAdmin(faulty);
    const sut = connectorFor(faulty, await installDespiteFaults(faultyAdmin), {
      retryBaseDelayMs: 5,
      maxAttempts: 8,
    });
    try {
      expectSameOrg(await collectAll(sut), faulty);
      expect(sut.stats().retries).toBeGreaterThan(3);
    } finally {
      await sut.close();
      await faultyAdmin.close();
      await faulty.close();
    }
  });

  it('under Enterprise rate limits waits for the reset after a 429 and loses nothing', async () => {
    const sut = connectorFor(limitedSim, limitedCredentials);
    try {
      expectSameOrg(await collectAll(sut), limitedSim);
      const stats = sut.stats();
      expect(stats.status429).toBeGreaterThanOrEqual(1);
      expect(stats.retries).toBe(stats.status429);
      expect(limitedSim.requestLog().status429).toBe(stats.status429);
    } finally {
      await sut.close();
    }
  }, 90_000);
});

/** The install call itself may meet an injected fault: try until one lands. */
async function installDespiteFaults(admin: OrgAdmin): Promise<Credentials> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await admin.installIntegration(OKTA_BACKUP_SCOPES);
    } catch (error) {
      if (attempt >= 10) throw error;
    }
  }
}
