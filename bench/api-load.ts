import autocannon from 'autocannon';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

/** What the load asks of the API: where, as whom, how fast, for how long, and which ids to ask for. */
export interface LoadPlan {
  baseUrl: string;
  token: string;
  /** requests a second */
  rate: number;
  seconds: number;
  connectionIds: string[];
  backupIds: string[];
}

/** What the load saw: every response's latency (ms) by route, and autocannon's counts. */
export interface LoadResult {
  latencies: Record<string, number[]>;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/**
 * Connections the load is spread over. autocannon lets a connection send its share of a second's
 * requests back to back when the second starts (9.0.0 `lib/httpClient.js`, `reqsMadeThisSecond`),
 * so each connection is its own autocannon run, started 1/LANES s after the one before: the
 * requests arrive spread over the second rather than all at its start.
 */
const LANES = 20;

/**
 * Drives the API with autocannon at `plan.rate` requests a second for `plan.seconds`, on a worker
 * thread of its own: the bench's main thread also serves the simulated org, whose pages would
 * otherwise hold up the load's clock and add their time to the latencies measured.
 */
export function runLoad(plan: LoadPlan): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: plan });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the load's thread exited with ${code}`)));
  });
}

/** The routes of the mix (docs/benchmarks/api.md), each making the path of its next request. */
function routes(plan: LoadPlan): Record<string, () => string> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
  return {
    'list by connection': () =>
      `/api/backup/list?connectionId=${pick(plan.connectionIds)}&status=completed&limit=50`,
    'list page': () => '/api/backup/list?limit=20&offset=40',
    backup: () => `/api/backup/${pick(plan.backupIds)}`,
    notifications: () => '/api/notifications?limit=50&unreadOnly=true',
    health: () => '/api/health',
  };
}

async function load(plan: LoadPlan): Promise<LoadResult> {
  const paths = routes(plan);
  const names = Object.keys(paths);
  const latencies: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  // Whole requests a second per lane, adding up to the rate (autocannon rounds a fraction up).
  const laneRate = (index: number) => Math.floor(plan.rate / LANES) + (index < plan.rate % LANES ? 1 : 0);
  const lane = (index: number) =>
    new Promise((resolve) => setTimeout(resolve, (index * 1000) / LANES)).then(
      () =>
        new Promise<autocannon.Result>((resolve, reject) => {
          // One connection, one request at a time: a response answers the route last picked.
          let route = names[0]!;
          const run = autocannon(
            {
              url: plan.baseUrl,
              connections: 1,
              connectionRate: laneRate(index),
              duration: plan.seconds,
              headers: { authorization: `Bearer ${plan.token}` },
              requests: [
                {
                  setupRequest: (request) => {
                    route = names[Math.floor(Math.random() * names.length)]!;
                    return { ...request, method: 'GET', path: paths[route]!() };
                  },
                },
              ],
            },
            (error, result) => (error ? reject(error as Error) : resolve(result)),
          );
          run.on('response', (_client, _status, _bytes, ms) => latencies[route]!.push(ms));
        }),
    );
  const lanes = Array.from({ length: LANES }, (_, index) => index).filter((index) => laneRate(index) > 0);
  const results = await Promise.all(lanes.map(lane));
  const total = (name: 'non2xx' | 'errors' | 'timeouts') =>
    results.reduce((sum, result) => sum + result[name], 0);
  return { latencies, non2xx: total('non2xx'), errors: total('errors'), timeouts: total('timeouts') };
}

if (!isMainThread && parentPort) parentPort.postMessage(await load(workerData as LoadPlan));
