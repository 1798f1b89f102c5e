import { parseArgs } from 'node:util';
import { runLoad } from './api-load.js';
import { round, startBenchOrg } from './bench-org.js';
import { accessToken, openSeedDatabase, seedBackups } from './seed-rows.js';

/** Requests a second the load holds, and for how long (docs/benchmarks/api.md). */
const DEFAULT_RATE = 200;
const DEFAULT_SECONDS = 60;
/**
 * `npm run bench:api -- [--users N] [--connections C] [--backups-per-connection B] [--rate R]
 * [--seconds S] [--roles split|all] [--json] [--cpu-prof DIR]` (docs/benchmarks/api.md): against a team
 * holding C connections (default 100) with B completed backups each (default 100: 10,000 in all),
 * autocannon drives the API at a fixed R requests a second (default 200) for S seconds (default
 * 60) with a mix of `GET /api/backup/list` with filters, `GET /api/backup/{id}`,
 * `GET /api/notifications` and `GET /api/health` (api-load.ts), while full backups of an N-user
 * org (default 10,000) run one after another, so that every request meets one.
 *
 * `--roles split` (the default) runs the service as README "Production" deploys it, an `api`
 * process and a `worker` process; `--roles all` runs both in one process (`npm start`).
 * Prints p50, p95, p99 and the maximum latency at the client (ms, from every response), p99 by
 * route, the requests, the non-2xx answers, the errors, and how many backups ran and the longest
 * (s, from the request to its completion). The service runs with its per-IP limits off
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
      roles: { type: 'string', default: 'split' },
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
  const roles = values.roles;
  if (roles !== 'all' && roles !== 'split') throw new Error('--roles must be all or split');
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);

  const bench = await startBenchOrg({
    users,
    rateLimits: 'none',
    log,
    cpuProfileDir: values['cpu-prof'],
    roles,
  });
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

    log(
      `full backups of ${users} users, one after another, while the API takes ${rate} requests a second for ${seconds} s (${roles})...`,
    );
    // Full backups one after another for as long as the load lasts: every request meets one.
    let loadRunning = true;
    const backupSeconds: number[] = [];
    const backups = (async () => {
      while (loadRunning) backupSeconds.push((await bench.backup({ forceFullBackup: true }, true)).seconds);
    })();
    const result = await runLoad({
      baseUrl: bench.service.baseUrl,
      token,
      rate,
      seconds,
      connectionIds,
      backupIds,
    });
    loadRunning = false;
    await backups;

    const all = Object.values(result.latencies).flat();
    const figures = {
      roles,
      rate,
      seconds,
      connections,
      backups: connections * perConnection,
      users,
      requests: all.length,
      ...percentiles(all),
      p99_ms_by_route: Object.fromEntries(
        Object.entries(result.latencies).map(([name, ms]) => [name, percentiles(ms).p99_ms]),
      ),
      non_2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      backups_run: backupSeconds.length,
      backup_seconds: round(Math.max(...backupSeconds)),
    };
    if (values.json) process.stdout.write(`${JSON.stringify(figures)}\n`);
    else
      for (const [name, value] of Object.entries(figures))
        process.stdout.write(`${name}: ${typeof value === 'object' ? JSON.stringify(value) : value}\n`);
  } finally {
    await seeded.close();
    await bench.close();
  }
}

/** p50, p95, p99 and the maximum of latencies in ms (nearest rank). */
function percentiles(ms: number[]): { p50_ms: number; p95_ms: number; p99_ms: number; max_ms: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (quantile: number) =>
    round(sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] ?? 0);
  return { p50_ms: at(0.5), p95_ms: at(0.95), p99_ms: at(0.99), max_ms: round(sorted.at(-1) ?? 0) };
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
