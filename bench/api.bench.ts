import autocannon from 'autocannon';
import { parseArgs } from 'node:util';
import { round, startBenchOrg } from './bench-org.js';
import { accessToken, openSeedDatabase, seedBackups } from './seed-rows.js';

/** Requests a second the load holds, and for how long (issue 32 "Load"). */
const DEFAULT_RATE = 200;
const DEFAULT_SECONDS = 60;

/**
 * `npm run bench:api -- [--users N] [--connections C] [--backups-per-connection B] [--rate R]
 * [--seconds S] [--json] [--cpu-prof DIR]` (issue 32 "Load"): against a team holding C connections (default 100)
 * with B completed backups each (default 100: 10,000 in all), while a backup of an N-user org
 * (default 10,000) runs, autocannon drives the API at a fixed R requests a second (default 200)
 * for S seconds (default 60) with a mix of `GET /api/backup/list` with filters,
 * `GET /api/backup/{id}`, `GET /api/notifications` and `GET /api/health`. Prints the latency
 * p50, p95 and p99 at the client (ms, from every response), the requests, the non-2xx answers and
 * the errors, and how long the backup took. The service runs with its per-IP limits off
 * (`RATE_LIMITS=off`, bench-org.ts): the bench measures its work, not the limit.
 * Target: p99 < 50 ms, no error.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '10000' },
      connections: { type: 'string', default: '100' },
      'backups-per-connection': { type: 'string', default: '100' },
      rate: { type: 'string', default: String(DEFAULT_RATE) },
      seconds: { type: 'string', default: String(DEFAULT_SECONDS) },
      json: { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
    },
    strict: true,
  });
  const [users, connections, perConnection, rate, seconds] = [
    'users',
    'connections',
    'backups-per-connection',
    'rate',
    'seconds',
  ].map((name) => {
    const value = Number(values[name as keyof typeof values]);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number above 0`);
    return value;
  });
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);

  const bench = await startBenchOrg({ users, rateLimits: 'none', log, cpuProfileDir: values['cpu-prof'] });
  const seeded = await openSeedDatabase(bench);
  try {
    log(`adding ${connections - 1} connections and ${connections * perConnection} backups...`);
    const connectionIds = [bench.connectionId];
    for (let index = 1; index < connections; index += 1)
      connectionIds.push(await bench.addConnection(`Bench ${index}`));
    await seedBackups(seeded.db, { ...seeded, connectionIds }, perConnection, '1 hour');
    const { rows } = await seeded.db.query<{ id: string }>(
      'SELECT id FROM backups ORDER BY started_at DESC LIMIT 1000',
    );
    const backupIds = rows.map((row) => row.id);
    const client = await bench.service.cli(['client:create', '--team', seeded.teamId, '--role', 'admin']);
    const token = await accessToken(bench.service.baseUrl, client.client_id, client.client_secret);

    log(`backing up ${users} users while the API takes ${rate} requests a second for ${seconds} s...`);
    const backup = bench.backup();
    const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
    const paths = [
      () => `/api/backup/list?connectionId=${pick(connectionIds)}&status=completed&limit=50`,
      () => '/api/backup/list?limit=20&offset=40',
      () => `/api/backup/${pick(backupIds)}`,
      () => '/api/notifications?limit=50&unreadOnly=true',
      () => '/api/health',
    ];
    const latencies: number[] = [];
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const load = autocannon(
        {
          url: bench.service.baseUrl,
          connections: 20,
          overallRate: rate,
          duration: seconds,
          headers: { authorization: `Bearer ${token}` },
          requests: [{ setupRequest: (request) => ({ ...request, method: 'GET', path: pick(paths)() }) }],
        },
        (error, done) => (error ? reject(error as Error) : resolve(done)),
      );
      load.on('response', (_client, _status, _bytes, responseTimeMs) => latencies.push(responseTimeMs));
    });
    const backupSeconds = (await backup).seconds;

    latencies.sort((a, b) => a - b);
    const at = (quantile: number) =>
      round(latencies[Math.min(latencies.length - 1, Math.floor(quantile * latencies.length))] ?? 0);
    const figures = {
      rate,
      seconds,
      connections,
      backups: connections * perConnection,
      users,
      requests: latencies.length,
      p50_ms: at(0.5),
      p95_ms: at(0.95),
      p99_ms: at(0.99),
      max_ms: round(latencies.at(-1) ?? 0),
      non_2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      backup_seconds: round(backupSeconds),
    };
    if (values.json) process.stdout.write(`${JSON.stringify(figures)}\n`);
    else for (const [name, value] of Object.entries(figures)) process.stdout.write(`${name}: ${value}\n`);
  } finally {
    await seeded.close();
    await bench.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
