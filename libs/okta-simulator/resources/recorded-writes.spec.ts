import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startSimulator } from '@libs/okta-simulator/index.js';
import { readRecordings, type RecordedExchange } from '@libs/okta-simulator/seed/fixtures/cassette-reader.js';
import type { RunningSimulator } from '@libs/okta-simulator/simulator-options.js';
import { cassettesDir } from '@libs/okta-simulator/testing/fixture-paths.js';
import { SimulatorClient } from '@libs/okta-simulator/testing/simulator-client.js';

const dir = cassettesDir();

/** The writes issue 23 names: replacing and creating authenticators and identity providers. */
const WRITES = /^\/api\/v1\/(authenticators|idps)(\/[^/]+)?$/;

/** Fields whose values the server sets at each write: compared by presence only. */
const STAMPS = /^\/(id|created|lastUpdated)$|^\/_links\//;

/** Every leaf of a JSON value as `pointer -> value` (arrays and objects are walked). */
function leaves(value: unknown, at = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value))
      for (const leaf of leaves(child, `${at}/${key}`)) out.set(...leaf);
    if (Object.keys(value).length === 0) out.set(at, value);
  } else out.set(at, value);
  return out;
}

/**
 * Replays the recorded creations and replacements of authenticators and identity providers
 * against the simulator seeded with the org that recorded them, and compares what Okta answered
 * with what the simulator answers: the status, and every field the recorded answer has that
 * the request named or that Okta keeps or derives (an authenticator's `settings.oauthClientId`,
 * a SAML IdP's `protocol.credentials.signing` and `trust.audience`), with its value.
 */
(dir ? describe : describe.skip)('recorded authenticator and identity provider writes, replayed', () => {
  const replays: Array<{ org: string; exchange: RecordedExchange }> = [];
  const simulators = new Map<string, { sim: RunningSimulator; client: SimulatorClient }>();

  beforeAll(async () => {
    for (const org of (await readRecordings(dir as string)).orgs)
      for (const exchange of org.exchanges)
        if (
          ['POST', 'PUT'].includes(exchange.method) &&
          WRITES.test(exchange.path) &&
          exchange.body.startsWith('{')
        )
          replays.push({ org: org.name, exchange });
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
    for (const { org, exchange } of replays) {
      const { client } = simulators.get(org)!;
      // A replacement of an object the seeded org does not hold (deleted by a later recording) has nothing to replace.
      if (exchange.method === 'PUT' && (await client.call('GET', exchange.path)).status !== 200) continue;
      const answer = await client.call(exchange.method, `${exchange.path}${exchange.search}`, {
        json: JSON.parse(exchange.requestBody),
      });
      compared++;
      const what = `${org} ${exchange.method} ${exchange.path}`;
      if (answer.status !== exchange.status) {
        differences.push(`${what}: status ${answer.status}, recorded ${exchange.status}`);
        continue;
      }
      const sent = leaves(JSON.parse(exchange.requestBody));
      const served = leaves(answer.body);
      for (const [path, value] of leaves(JSON.parse(exchange.body))) {
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
    expect(compared).toBeGreaterThan(20);
    expect(differences).toEqual([]);
  });
});
