import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startSimulator } from '@libs/simulators/okta/index.js';
import {
  readRecordings,
  type RecordedExchange,
} from '@libs/simulators/okta/seed/fixtures/cassette-reader.js';
import type { RunningSimulator } from '@libs/simulators/okta/simulator-options.js';
import { cassettesDir } from '@libs/simulators/okta/testing/fixture-paths.js';
import { deleteOne } from '@libs/simulators/okta/testing/okta-damage.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';

const dir = cassettesDir();

const ID = '[0-9A-Za-z]{20}';

/**
 * The writes a restore makes (libs/providers/okta/restore/definitions), by the type they write:
 * creations (POST to the collection) and replacements or updates (PUT, or POST where Okta updates
 * that way) of one object. Writes without a JSON answer (204) are compared by status.
 */
const WRITES: ReadonlyArray<[string, RegExp]> = [
  ['user', new RegExp(`^/api/v1/users(/${ID})?$`)],
  ['group', new RegExp(`^/api/v1/groups(/${ID})?$`)],
  ['group_membership', new RegExp(`^/api/v1/groups/${ID}/users/${ID}$`)],
  ['group_rule', new RegExp(`^/api/v1/groups/rules(/${ID})?$`)],
  ['group_owner', new RegExp(`^/api/v1/groups/${ID}/owners$`)],
  ['app', new RegExp(`^/api/v1/apps(/${ID})?$`)],
  ['app_feature', new RegExp(`^/api/v1/apps/${ID}/features/[A-Z_]+$`)],
  ['app_user_assignment', new RegExp(`^/api/v1/apps/${ID}/users$`)],
  ['app_group_assignment', new RegExp(`^/api/v1/apps/${ID}/groups/${ID}$`)],
  ['app_sign_on_policy', new RegExp(`^/api/v1/apps/${ID}/policies/${ID}$`)],
  ['app_user_schema', new RegExp(`^/api/v1/meta/schemas/apps/${ID}/default$`)],
  ['user_schema', /^\/api\/v1\/meta\/schemas\/user\/default$/],
  ['user_type', new RegExp(`^/api/v1/meta/types/user(/${ID})?$`)],
  ['linked_object', /^\/api\/v1\/meta\/schemas\/user\/linkedObjects$/],
  ['profile_mapping', new RegExp(`^/api/v1/mappings/${ID}$`)],
  ['authenticator', /^\/api\/v1\/authenticators(\/[^/]+)?$/],
  ['behavior', new RegExp(`^/api/v1/behaviors(/${ID})?$`)],
  ['identity_provider', new RegExp(`^/api/v1/idps(/${ID})?$`)],
  ['event_hook', new RegExp(`^/api/v1/eventHooks(/${ID})?$`)],
  ['inline_hook', new RegExp(`^/api/v1/inlineHooks(/${ID})?$`)],
  ['network_zone', new RegExp(`^/api/v1/zones(/${ID})?$`)],
  ['trusted_origin', new RegExp(`^/api/v1/trustedOrigins(/${ID})?$`)],
  ['policy', new RegExp(`^/api/v1/policies(/${ID})?$`)],
  ['policy_rule', new RegExp(`^/api/v1/policies/${ID}/rules(/${ID})?$`)],
  ['authorization_server', new RegExp(`^/api/v1/authorizationServers(/${ID})?$`)],
  [
    'authorization_server_child',
    new RegExp(`^/api/v1/authorizationServers/${ID}/(scopes|claims|policies)(/${ID})?$`),
  ],
  [
    'authorization_server_policy_rule',
    new RegExp(`^/api/v1/authorizationServers/${ID}/policies/${ID}/rules(/${ID})?$`),
  ],
  ['brand', new RegExp(`^/api/v1/brands(/${ID})?$`)],
  ['brand_theme', new RegExp(`^/api/v1/brands/${ID}/themes/${ID}$`)],
  ['email_template', new RegExp(`^/api/v1/brands/${ID}/templates/email/\\w+/settings$`)],
  ['email_customization', new RegExp(`^/api/v1/brands/${ID}/templates/email/\\w+/customizations$`)],
  ['custom_domain', new RegExp(`^/api/v1/domains(/${ID})?$`)],
  ['custom_admin_role', /^\/api\/v1\/iam\/roles$/],
  ['admin_role_assignment', new RegExp(`^/api/v1/(users|groups)/${ID}/roles$`)],
  ['admin_role_target', new RegExp(`^/api/v1/(users|groups)/${ID}/roles/\\w+/targets/.+$`)],
];

/**
 * Restored types whose recorded writes the simulator does not answer as Okta did yet, with what
 * differs (docs/restore-fidelity.md, left open). Their writes are still replayed, in order, so that the org
 * evolves as recorded; the test fails once one of them answers as Okta did, so that it leaves this list.
 */
const NOT_YET: Readonly<Record<string, string>> = {
  user: 'a replacement without `login` is refused (400) where Okta kept the login; a creation Okta refused (400) is accepted',
  group:
    "a replacement to a name a later recording's group holds is refused (the seeded org is the latest state)",
  group_rule: 'Okta answered 423 while a rule was being processed; the simulator has no such state',
  user_type: 'an update by POST to `/meta/types/user/{id}` answers 404',
  app: 'custom app names are made from the simulator host, not the org subdomain; catalog app names keep their case; `loginUrlRegex: ""` is not answered null; a BROWSER_PLUGIN app answers AUTO_LOGIN; a creation and a replacement Okta refused (400) are accepted',
  authenticator: 'deactivating a custom app authenticator in use answers 200 where Okta refused (400, 403)',
  identity_provider:
    "a replacement naming a signing key created by POST /idps/credentials/keys (not replayed) answers the simulator's key",
  authorization_server:
    'classic-00 answers 401 to every creation (API Access Management off), the simulator 201; `lastRotated` lacks milliseconds',
  email_customization: "a creation in a language a later recording's customization holds is refused (409)",
  event_hook: '`lifecycle/verify` is not served (404)',
  network_zone:
    'a gateway range `a-a` is not answered as Okta writes it; a replacement leaves status where Okta answered INACTIVE',
  policy:
    "a replacement's answered `settings.authenticators` and `priority` differ from Okta's (the seeded org's authenticators and policy places)",
  policy_rule:
    'verification constraints and platform conditions answer nulls and keys Okta leaves out, and without the ones it adds (`slo: null`)',
  admin_role_target:
    "role assignment ids are Okta's own (not rewritten to the replayed assignment's): targets answer 404",
};

/** Fields whose values the server sets at each write: compared by presence only. */
const STAMPS = /^\/(id|created|lastUpdated)$|^\/_links\//;

/**
 * Every leaf of a JSON value as `pointer -> value` (objects are walked). An array is one leaf, its
 * items in a canonical order: Okta answers lists it holds as sets (zone locations, hook events,
 * grant types) in an order of its own.
 */
function leaves(value: unknown, at = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (Array.isArray(value)) out.set(at, value.map(canonical).sort());
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value))
      for (const leaf of leaves(child, `${at}/${key}`)) out.set(...leaf);
    if (Object.keys(value).length === 0) out.set(at, value);
  } else out.set(at, value);
  return out;
}

/** JSON text of a value with every object's keys sorted (Okta's key order is its own). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonical(child)}`).join(',')}}`;
}

/**
 * Replays the recorded writes of every restored type (creations, replacements, updates,
 * activations), in recorded order, against the simulator seeded with the org that recorded them,
 * and compares what Okta answered with what the simulator answers: the status, and every field the recorded answer has that
 * the request named or that Okta keeps or derives (an authenticator's `settings.oauthClientId`,
 * a SAML IdP's `protocol.credentials.signing` and `trust.audience`), with its value.
 */
(dir ? describe : describe.skip)('recorded writes of the restored types, replayed', () => {
  const replays: Array<{ org: string; type: string; exchange: RecordedExchange }> = [];
  const simulators = new Map<string, { sim: RunningSimulator; client: SimulatorClient }>();

  beforeAll(async () => {
    for (const org of (await readRecordings(dir as string)).orgs)
      for (const exchange of org.exchanges) {
        // Activations and deactivations too: they set the status the next write meets.
        const object = exchange.path.replace(/\/lifecycle\/\w+$/, '');
        const type = WRITES.find(([, path]) => path.test(object))?.[0];
        if (type && ['POST', 'PUT'].includes(exchange.method))
          replays.push({ org: org.name, type, exchange });
      }
    for (const org of new Set(replays.map((r) => r.org))) {
      const sim = await startSimulator({ fixturesDir: dir, fixtureOrg: org });
      simulators.set(org, { sim, client: new SimulatorClient(sim) });
    }
  }, 120_000);

  afterAll(async () => {
    for (const { sim, client } of simulators.values()) {
      await client.close();
      await sim.close();
    }
  });

  it('answers as Okta did', async () => {
    const differences: string[] = [];
    let compared = 0;
    /** Per org: the ids the replay's creations got for the ids Okta gave (later writes name them). */
    const newIds = new Map<string, Map<string, string>>();
    for (const { org, type, exchange: original } of replays) {
      const { client } = simulators.get(org)!;
      const ids = newIds.get(org) ?? new Map<string, string>();
      newIds.set(org, ids);
      const exchange = rewritten(original, ids);
      // A write to an object the seeded org does not hold (deleted by a later recording) has nothing to write to.
      if (!(await holds(client, exchange))) continue;
      await makeRoom(simulators.get(org)!, type, exchange);
      const request = json(exchange.requestBody);
      const answer = await client.call(
        exchange.method,
        `${exchange.path}${exchange.search}`,
        request === undefined ? {} : { json: request },
      );
      const made = (answer.body as { id?: unknown } | undefined)?.id;
      const recordedId = (json(exchange.body) as { id?: unknown } | undefined)?.id;
      if (exchange.method === 'POST' && typeof made === 'string' && typeof recordedId === 'string')
        ids.set(recordedId, made);
      compared++;
      const what = `${type}: ${org} ${exchange.method} ${exchange.path}`;
      if (answer.status !== exchange.status) {
        differences.push(
          `${what}: status ${answer.status} (${answer.text.slice(0, 400)}), recorded ${exchange.status}`,
        );
        continue;
      }
      const recorded = json(exchange.body);
      if (recorded === undefined || exchange.status >= 300) continue;
      const sent = leaves(request ?? {});
      const served = leaves(answer.body);
      for (const [path, value] of leaves(recorded)) {
        const named =
          sent.has(path) ||
          /^\/settings\/oauthClientId$|^\/protocol\/credentials\/(signing|trust\/audience)/.test(path);
        if (!named) continue;
        if (!served.has(path)) differences.push(`${what}: no ${path}`);
        else if (
          !STAMPS.test(path) &&
          exchange.method === 'PUT' &&
          JSON.stringify(served.get(path)) !== JSON.stringify(value)
        )
          differences.push(
            `${what}: ${path} ${JSON.stringify(served.get(path))}, recorded ${JSON.stringify(value)}`,
          );
      }
    }
    expect(compared).toBeGreaterThan(200);
    const typeOf = (difference: string) => difference.slice(0, difference.indexOf(':'));
    expect(differences.filter((difference) => !(typeOf(difference) in NOT_YET))).toEqual([]);
    // A type that answers as Okta did leaves NOT_YET.
    expect(Object.keys(NOT_YET).filter((type) => !differences.some((d) => typeOf(d) === type))).toEqual([]);
    expect(new Set(replays.map((replay) => replay.type)).size).toBeGreaterThan(Object.keys(NOT_YET).length);
  }, 120_000);
});

/** The exchange with the ids of objects the replay re-created replaced by their new ids. */
function rewritten(exchange: RecordedExchange, ids: Map<string, string>): RecordedExchange {
  if (ids.size === 0) return exchange;
  const replace = (text: string) =>
    text.replace(new RegExp(`(?<![0-9A-Za-z])${ID}(?![0-9A-Za-z])`, 'g'), (id) => ids.get(id) ?? id);
  return {
    ...exchange,
    path: replace(exchange.path),
    requestBody: replace(exchange.requestBody),
    body: replace(exchange.body),
  };
}

/** A recorded body as JSON, or undefined when it holds none (a 204, an empty request). */
const json = (text: string) => (text.trim().startsWith('{') ? (JSON.parse(text) as unknown) : undefined);

/** Where a created object's name, unique in its org (or parent), stands: a second is refused. */
const UNIQUE: Readonly<Record<string, string[]>> = {
  user: ['profile', 'login'],
  group: ['profile', 'name'],
  group_rule: ['name'],
  group_owner: ['id'],
  brand: ['name'],
  linked_object: ['primary', 'name'],
  email_customization: ['language'],
};

const at = (data: unknown, path: string[]) =>
  path.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], data);
const caseless = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

/**
 * Before a recorded creation: the objects the org seeded from the same recordings holds that the
 * creation would meet (the one it made, or one a later recording made under its name), deleted as
 * an admin would, so that the creation meets the org it met.
 */
async function makeRoom(
  { sim, client }: { sim: RunningSimulator; client: SimulatorClient },
  type: string,
  exchange: RecordedExchange,
): Promise<void> {
  const created = json(exchange.body) as Record<string, unknown> | undefined;
  if (exchange.method !== 'POST' || exchange.status >= 300 || !created) return;
  if (/\/lifecycle\/\w+$/.test(exchange.path)) return;
  const parents = exchange.path.split('/').filter((segment) => new RegExp(`^${ID}$`).test(segment));
  const state = sim.snapshot();
  const records = (state[type as keyof typeof state] ?? []).filter(
    (record) =>
      record.id.startsWith(parents.join(':')) &&
      (record.id.split(':').pop() === created.id ||
        (UNIQUE[type] && caseless(at(record.data, UNIQUE[type])) === caseless(at(created, UNIQUE[type])))),
  );
  for (const record of records) await deleteOne(client, type as OktaResourceType, [record], state);
}

/**
 * Whether the seeded org holds what a recorded write writes to: a replaced or (de)activated
 * object, and every object its path names by id (a creation's parent, both ends of a membership).
 */
async function holds(client: SimulatorClient, exchange: RecordedExchange): Promise<boolean> {
  const object = exchange.path.replace(/\/lifecycle\/\w+$/, '');
  if (
    (exchange.method === 'PUT' || object !== exchange.path) &&
    (await client.call('GET', object)).status === 404
  )
    return false;
  const segments = exchange.path.split('/');
  for (let end = 4; end <= segments.length; end++) {
    if (!new RegExp(`^${ID}$`).test(segments[end - 1])) continue;
    // `/groups/{g}/users/{u}`: the user is `/api/v1/users/{u}`; other ids are read where they stand.
    const path =
      segments[end - 2] === 'users' && end > 4
        ? `/api/v1/users/${segments[end - 1]}`
        : segments.slice(0, end).join('/');
    if ((await client.call('GET', path)).status !== 200) return false;
  }
  return true;
}
