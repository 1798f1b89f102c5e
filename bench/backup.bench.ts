import { parseArgs } from 'node:util';
import { round, startBenchOrg } from './bench-org.js';
import { printFigures, requestFigures } from './request-figures.js';

/**
 * `npm run bench:backup -- --users N [--rate-limits enterprise|none] [--include TYPES] [--json] [--cpu-prof DIR]`:
 * one full backup (or of the comma-separated types or categories of `--include`) of
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
      include: { type: 'string' },
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
    const serviceCpuBefore = service.cpuSeconds();
    const simulatorCpuBefore = process.cpuUsage();
    const { seconds } = await bench.backup(values.include ? { include: values.include.split(',') } : {});

    const serviceCpu = service.cpuSeconds() - serviceCpuBefore;
    const simulatorCpu = process.cpuUsage(simulatorCpuBefore);
    const { byEndpoint, ...figures } = requestFigures(before, org.requestLog(), rateLimits, seconds);
    const result = {
      users,
      rate_limits: rateLimits,
      seconds: round(seconds),
      users_per_second: Math.round(users / seconds),
      requests: figures.requests,
      status429: figures.status429,
      peak_rss_mb: service.peakRssMb(),
      service_cpu_seconds: round(serviceCpu),
      // The simulator runs in this process (with the client that polls the backup's status).
      simulator_cpu_seconds: round((simulatorCpu.user + simulatorCpu.system) / 1e6),
      lower_bound_seconds: figures.lower_bound_seconds,
      ratio: figures.ratio,
    };
    printFigures(result, byEndpoint, values.json);
  } finally {
    await bench.close();
  }
}

await main();
