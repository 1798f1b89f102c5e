import { parseArgs } from 'node:util';
import { round, startBenchOrg } from './bench-org.js';
import { graphLowerBound, startBenchTenant } from './bench-tenant.js';
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
 * The Entra ID backup bench (issue 30): the same figures, the lower bound from Graph's resource
 * units (bench-tenant.ts) with the units the simulator counted.
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
    const before = { counts: tenant.requestCounts(), totals: tenant.throttleTotals() };
    const serviceCpuBefore = service.cpuSeconds();
    const simulatorCpuBefore = process.cpuUsage();
    const { seconds } = await bench.backup(values.include ? { include: values.include.split(',') } : {});
    const serviceCpu = service.cpuSeconds() - serviceCpuBefore;
    const simulatorCpu = process.cpuUsage(simulatorCpuBefore);
    const byEndpoint = Object.fromEntries(
      Object.entries(tenant.requestCounts())
        .map(([endpoint, count]) => [endpoint, count - (before.counts[endpoint] ?? 0)] as const)
        .filter(([, count]) => count > 0),
    );
    const totals = tenant.throttleTotals();
    const resourceUnits = totals.resourceUnits - before.totals.resourceUnits;
    const conditionalAccess = Object.entries(byEndpoint)
      .filter(([endpoint]) => endpoint.includes('/identity/conditionalAccess/'))
      .reduce((sum, [, count]) => sum + count, 0);
    const lowerBound =
      rateLimits === 'enterprise' ? graphLowerBound(users, resourceUnits, conditionalAccess) : 0;
    const result = {
      provider: 'entra_id',
      users,
      rate_limits: rateLimits,
      seconds: round(seconds),
      users_per_second: Math.round(users / seconds),
      requests: Object.values(byEndpoint).reduce((sum, count) => sum + count, 0),
      status429: totals.status429 - before.totals.status429,
      resource_units: resourceUnits,
      peak_rss_mb: service.peakRssMb(),
      service_cpu_seconds: round(serviceCpu),
      simulator_cpu_seconds: round((simulatorCpu.user + simulatorCpu.system) / 1e6),
      lower_bound_seconds: lowerBound,
      ratio: lowerBound > 0 ? round(seconds / lowerBound) : null,
    };
    printFigures(result, byEndpoint, values.json ?? false);
  } finally {
    await bench.close();
  }
}

await main();
