import { setTimeout as delay } from 'node:timers/promises';
import type { RunningSimulator } from '@libs/simulators/okta/simulator-options.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { bucketFor } from '@libs/simulators/okta/rate-limit/rate-limit-buckets.js';

/**
 * One request per Okta rate-limit bucket a backup draws on (rate-limit-buckets.ts): the cheapest
 * read of each, as the customer's other integrations (a provisioning tool, a SIEM poller) would
 * send them beside our backup. `logged` is how the simulator's request log names it.
 */
const ENDPOINTS = [
  { path: '/api/v1/apps?limit=1', logged: 'GET /api/v1/apps' },
  { path: '/api/v1/groups?limit=1', logged: 'GET /api/v1/groups' },
  { path: '/api/v1/users?limit=1', logged: 'GET /api/v1/users' },
  { path: '/api/v1/zones', logged: 'GET /api/v1/zones' },
] as const;

/** What the other integration saw, over the whole run and while our backup ran. */
export interface OtherTrafficFigures {
  /** requests it sent, by how the simulator logs them (`GET /api/v1/apps`) */
  byEndpoint: Record<string, number>;
  requests: number;
  status429: number;
  /** its requests sent between `markStart` and `markEnd` (our backup); `requests` counts them all */
  requests_during_backup: number;
  /** of those, the ones refused with 429 */
  status429_during_backup: number;
}

/** A steady stream of another integration's requests; `stop` ends it and tells its figures. */
export interface OtherTraffic {
  markStart(): void;
  markEnd(): void;
  stop(): Promise<OtherTrafficFigures>;
}

/**
 * Starts another integration's traffic to `org`: `share` (0 < share <= 1) of each bucket's
 * per-minute limit, each bucket's requests evenly spaced and sent one after the other (a 429 is
 * counted, not retried), through the simulator's real rate limiting with the org's API token.
 */
export function startOtherTraffic(org: RunningSimulator, share: number): OtherTraffic {
  if (!(share > 0 && share <= 1)) throw new Error('the other traffic share must be above 0 and at most 1');
  const client = new SimulatorClient(org);
  const figures: OtherTrafficFigures = {
    byEndpoint: {},
    requests: 0,
    status429: 0,
    requests_during_backup: 0,
    status429_during_backup: 0,
  };
  let during = false;
  let stopped = false;
  const loops = ENDPOINTS.map(async ({ path, logged }) => {
    const [method, template] = logged.split(' ');
    const intervalMs = 60_000 / (share * bucketFor(method, template).perMinute);
    let next = performance.now();
    while (!stopped) {
      const counted = during;
      const response = await client.call(method, path);
      figures.byEndpoint[logged] = (figures.byEndpoint[logged] ?? 0) + 1;
      figures.requests++;
      if (counted) figures.requests_during_backup++;
      if (response.status === 429) {
        figures.status429++;
        if (counted) figures.status429_during_backup++;
      } else if (response.status !== 200) {
        throw new Error(`other traffic: ${logged} answered ${response.status}`);
      }
      next += intervalMs;
      await delay(Math.max(0, next - performance.now()));
    }
  });
  return {
    markStart: () => (during = true),
    markEnd: () => (during = false),
    async stop() {
      stopped = true;
      await Promise.all(loops);
      await client.agent.close();
      return figures;
    },
  };
}
