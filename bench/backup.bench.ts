import { parseArgs } from 'node:util';
import { round, startBenchOrg } from './bench-org.js';
import { graphCounters, graphFigures, startBenchTenant } from './bench-tenant.js';
import { printFigures, requestFigures } from './request-figures.js';

/**
 * `npm run bench:backup -- --users N [--provider okta|entra_id] [--rate-limits enterprise|none] [--include TYPES] [--json] [--cpu-prof DIR]`:
 * one full backup (or of the comma-separated types or categories of `--include`) of
 * a generated org (Okta) or tenant (Entra ID) through the whole pipeline (service process,
 * embedded PostgreSQL, filesystem store, simulator over HTTPS), with the figures issues #3 and #30
 * set targets for.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '10000' },
      'rate-limits': { type: 'string', default: 'none' },
      json: { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
      include: { type: 'string' },
      provider: { type: 'string', default: 'okta' },
    },
    strict: true,
  });
  const users = Number(values.users);
  const rateLimits = values['rate-limits'];
  if (!Number.isInteger(users) || users < 1) throw new Error('--users must be a positive whole number');
  if (rateLimits !== 'none' && rateLimits !== 'enterprise')
    throw new Error('--rate-limits must be none or enterprise');
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);
  if (values.provider === 'entra_id') return benchEntra(users, rateLimits, values, log);
  if (values.provider !== 'okta') throw new Error('--provider must be okta or entra_id');

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

/**
 * The Entra ID backup bench (docs/resource-types.md "Microsoft Entra ID"): the same figures, the lower bound
 * from Graph's resource units (bench-tenant.ts) with the units the simulator counted.
 */
async function benchEntra(
  users: number,
  rateLimits: 'none' | 'enterprise',
  values: { json?: boolean; include?: string; 'cpu-prof'?: string },
  log: (line: string) => void,
): Promise<void> {
  const bench = await startBenchTenant({ users, rateLimits, log, cpuProfileDir: values['cpu-prof'] });
  const { tenant, service } = bench;
  try {
    const before = graphCounters(tenant);
    const serviceCpuBefore = service.cpuSeconds();
    const simulatorCpuBefore = process.cpuUsage();
    const { seconds } = await bench.backup(values.include ? { include: values.include.split(',') } : {});
    const serviceCpu = service.cpuSeconds() - serviceCpuBefore;
    const simulatorCpu = process.cpuUsage(simulatorCpuBefore);
    const { byEndpoint, ...figures } = graphFigures(tenant, before, users, rateLimits, seconds);
    const result = {
      provider: 'entra_id',
      users,
      rate_limits: rateLimits,
      seconds: round(seconds),
      users_per_second: Math.round(users / seconds),
      requests: figures.requests,
      status429: figures.status429,
      resource_units: figures.resource_units,
      peak_rss_mb: service.peakRssMb(),
      service_cpu_seconds: round(serviceCpu),
      simulator_cpu_seconds: round((simulatorCpu.user + simulatorCpu.system) / 1e6),
      lower_bound_seconds: figures.lower_bound_seconds,
      ratio: figures.ratio,
    };
    printFigures(result, byEndpoint, values.json ?? false);
  } finally {
    await bench.close();
  }
}

await main();
