import { parseArgs } from 'node:util';
import { HEADROOM, round, startBenchOrg } from './bench-org.js';
import { rateLimitLowerBound } from './rate-limit-bound.js';

/**
 * `npm run bench:backup -- --users N [--rate-limits enterprise|none] [--json] [--cpu-prof DIR]`: one full backup of
 * a generated org through the whole pipeline (service process, embedded PostgreSQL, filesystem
 * store, simulator over HTTPS), with the figures issue #3 sets targets for.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '10000' },
      'rate-limits': { type: 'string', default: 'none' },
      json: { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
    },
    strict: true,
  });
  const users = Number(values.users);
  const rateLimits = values['rate-limits'];
  if (!Number.isInteger(users) || users < 1) throw new Error('--users must be a positive whole number');
  if (rateLimits !== 'none' && rateLimits !== 'enterprise')
    throw new Error('--rate-limits must be none or enterprise');
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);

  const bench = await startBenchOrg({
    users,
    rateLimits,
    log,
    cpuProfileDir: values['cpu-prof'],
  });
  const { org, service } = bench;
  try {
    const before = org.requestLog();
    const { seconds } = await bench.backup();

    const after = org.requestLog();
    const byEndpoint = Object.fromEntries(
      Object.entries(after.byEndpoint)
        .map(([endpoint, count]) => [endpoint, count - (before.byEndpoint[endpoint] ?? 0)] as const)
        .filter(([, count]) => count > 0),
    );
    const requests = Object.values(byEndpoint).reduce((sum, count) => sum + count, 0);
    const lowerBound = rateLimits === 'enterprise' ? rateLimitLowerBound(byEndpoint, HEADROOM) : 0;
    const result = {
      users,
      rate_limits: rateLimits,
      seconds: round(seconds),
      users_per_second: Math.round(users / seconds),
      requests,
      status429: after.status429 - before.status429,
      peak_rss_mb: service.peakRssMb(),
      lower_bound_seconds: round(lowerBound),
      ratio: lowerBound > 0 ? round(seconds / lowerBound) : null,
    };
    if (values.json) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } else {
      process.stdout.write(`\nrequests by endpoint:\n`);
      for (const [endpoint, count] of Object.entries(byEndpoint).sort((a, b) => b[1] - a[1])) {
        process.stdout.write(`  ${String(count).padStart(7)}  ${endpoint}\n`);
      }
      process.stdout.write(
        `\n${Object.entries(result)
          .map(([key, value]) => `${key.padEnd(20)} ${value}`)
          .join('\n')}\n`,
      );
    }
  } finally {
    await bench.close();
  }
}

await main();
