import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import type { RequestLogSummary } from '@libs/simulators/okta/http/request-log.js';
import type { ServiceClient } from '@tools/demo/service-client.js';
import { type BackupCpu, watchBackupCpu } from './backup-cpu.js';
import { round, startBenchOrg } from './bench-org.js';
import { graphCounters, graphFigures, startBenchTenant } from './bench-tenant.js';
import { printFigures, requestFigures } from './request-figures.js';
import { startOtherTraffic, type OtherTrafficFigures } from './other-traffic.js';

/**
 * How long the other integration's traffic runs before our backup starts: long enough that its
 * windows are open and its pace steady when we begin, as a customer's running integrations are.
 */
const OTHER_TRAFFIC_LEAD_MS = 5_000;

/**
 * How long the other integration goes on after our backup: one Okta window, so that a request of
 * its refused because we spent into the reserve near the end of a window is counted too.
 */
const OTHER_TRAFFIC_TAIL_MS = 60_000;

/**
 * `npm run bench:backup -- --users N [--provider okta|entra_id] [--rate-limits enterprise|none] [--include TYPES] [--json] [--cpu-prof DIR] [--phases] [--other-traffic SHARE [--other-traffic-lead SECONDS]] [--idle-headroom SHARE]`:
 * one full backup (or of the comma-separated types or categories of `--include`) of
 * a generated org (Okta) or tenant (Entra ID) through the whole pipeline (service process,
 * embedded PostgreSQL, filesystem store, simulator over HTTPS), with the figures the backup
 * targets are set on, and the service's CPU seconds by kind of thread (`service_cpu_by_thread`).
 * `--phases` (or `--cpu-prof`) profiles the service and adds its CPU seconds per 10,000 records by
 * phase (`cpu_per_10k_records`, bench/cpu-phases.ts); the profiler costs a few per cent of speed.
 *
 * Okta only: `--other-traffic SHARE` runs another integration beside the backup, SHARE (0-1) of
 * each bucket's limit (other-traffic.ts), and reports how many of its requests were refused with
 * 429 while the backup ran, and in the minute after it; the backup's own requests and 429s leave
 * its out. It starts `--other-traffic-lead` seconds before the backup (default 5: its windows are
 * open when we begin), or after it when negative (an integration that starts while we run;
 * `--other-traffic-lead=-3`). `--idle-headroom SHARE` sets the service's
 * PROVIDER_RATE_LIMIT_IDLE_HEADROOM (equal to the headroom, 0.2: the reserve is never spent into,
 * as before docs/backups.md "Rate limits").
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
      phases: { type: 'boolean', default: false },
      'other-traffic': { type: 'string' },
      'idle-headroom': { type: 'string' },
      'other-traffic-lead': { type: 'string', default: String(OTHER_TRAFFIC_LEAD_MS / 1000) },
    },
    strict: true,
  });
  const profileDir =
    values['cpu-prof'] ?? (values.phases ? mkdtempSync(join(tmpdir(), 'bench-backup-prof-')) : undefined);
  try {
    await run(values, profileDir);
  } finally {
    if (values['cpu-prof'] === undefined && profileDir !== undefined)
      rmSync(profileDir, { recursive: true, force: true });
  }
}

async function run(
  values: {
    users: string;
    'rate-limits': string;
    json: boolean;
    include?: string;
    provider: string;
    'other-traffic'?: string;
    'idle-headroom'?: string;
    'other-traffic-lead': string;
  },
  profileDir: string | undefined,
): Promise<void> {
  const users = Number(values.users);
  const rateLimits = values['rate-limits'];
  if (!Number.isInteger(users) || users < 1) throw new Error('--users must be a positive whole number');
  if (rateLimits !== 'none' && rateLimits !== 'enterprise')
    throw new Error('--rate-limits must be none or enterprise');
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);
  if (values.provider === 'entra_id') return benchEntra(users, rateLimits, values, profileDir, log);
  if (values.provider !== 'okta') throw new Error('--provider must be okta or entra_id');

  const otherShare = values['other-traffic'] === undefined ? undefined : Number(values['other-traffic']);
  const idleHeadroom = values['idle-headroom'];
  const bench = await startBenchOrg({
    users,
    rateLimits,
    log,
    cpuProfileDir: profileDir,
    env: idleHeadroom === undefined ? {} : { PROVIDER_RATE_LIMIT_IDLE_HEADROOM: idleHeadroom },
  });
  const { org, service } = bench;
  let printed: { result: Record<string, unknown>; byEndpoint: Record<string, number> };
  let cpu: BackupCpu;
  let records: number;
  try {
    const before = org.requestLog();
    const leadMs = Number(values['other-traffic-lead']) * 1000;
    if (!Number.isFinite(leadMs)) throw new Error('--other-traffic-lead must be a number of seconds');
    let other = otherShare !== undefined && leadMs >= 0 ? startOtherTraffic(org, otherShare) : undefined;
    if (other) await delay(leadMs);
    const serviceCpuBefore = service.cpuSeconds();
    const simulatorCpuBefore = process.cpuUsage();
    const stopCpu = watchBackupCpu(service, profileDir);
    other?.markStart();
    const [{ backupId, seconds }] = await Promise.all([
      bench.backup(values.include ? { include: values.include.split(',') } : {}),
      (async () => {
        if (otherShare === undefined || leadMs >= 0) return;
        await delay(-leadMs);
        other = startOtherTraffic(org, otherShare);
        other.markStart();
      })(),
    ]);
    other?.markEnd();
    cpu = stopCpu();

    const serviceCpu = service.cpuSeconds() - serviceCpuBefore;
    const simulatorCpu = process.cpuUsage(simulatorCpuBefore);
    if (other) await delay(OTHER_TRAFFIC_TAIL_MS);
    const others = await other?.stop();
    const { byEndpoint, ...figures } = requestFigures(
      before,
      withoutOthers(org.requestLog(), others),
      rateLimits,
      seconds,
    );
    const result = {
      users,
      rate_limits: rateLimits,
      seconds: round(seconds),
      users_per_second: Math.round(users / seconds),
      requests: figures.requests,
      status429: figures.status429,
      ...(idleHeadroom === undefined ? {} : { idle_headroom: Number(idleHeadroom) }),
      ...(others && {
        other_traffic_share: otherShare,
        other_requests_during_backup: others.requests_during_backup,
        other_status429_during_backup: others.status429_during_backup,
        // From its lead to a window after our backup: what it lost because of us, as late as it shows.
        other_requests: others.requests,
        other_status429: others.status429,
      }),
      peak_rss_mb: service.peakRssMb(),
      service_cpu_seconds: round(serviceCpu),
      // The simulator runs in this process (with the client that polls the backup's status).
      simulator_cpu_seconds: round((simulatorCpu.user + simulatorCpu.system) / 1e6),
      lower_bound_seconds: figures.lower_bound_seconds,
      ratio: figures.ratio,
      service_cpu_by_thread: cpu.byThread,
    };
    records = await recordCount(bench.api, backupId);
    printed = { result, byEndpoint };
  } finally {
    await bench.close();
  }
  // The service wrote its profiles as it stopped.
  printPhases(printed, cpu.phases(records), values.json);
}

/**
 * The org's request log less the other integration's requests and 429s (they are not the
 * backup's), or as it is without other traffic.
 */
function withoutOthers(log: RequestLogSummary, others: OtherTrafficFigures | undefined): RequestLogSummary {
  if (!others) return log;
  const byEndpoint = { ...log.byEndpoint };
  for (const [endpoint, count] of Object.entries(others.byEndpoint)) byEndpoint[endpoint] -= count;
  return {
    ...log,
    total: log.total - others.requests,
    status429: log.status429 - others.status429,
    byEndpoint,
  };
}

/** Records the backup holds (its `resource_counts` summed). */
async function recordCount(api: ServiceClient, backupId: string): Promise<number> {
  const { backup } = await api.get<{ backup: { resource_counts: Record<string, number> } }>(
    `/api/backup/${backupId}`,
  );
  return Object.values(backup.resource_counts).reduce((sum, count) => sum + count, 0);
}

/** Prints a run's figures, with its CPU per 10,000 records by phase when it was profiled. */
function printPhases(
  { result, byEndpoint }: { result: Record<string, unknown>; byEndpoint: Record<string, number> },
  phases: Record<string, number> | null,
  json: boolean,
): void {
  printFigures(phases === null ? result : { ...result, cpu_per_10k_records: phases }, byEndpoint, json);
}

/**
 * The Entra ID backup bench (docs/resource-types.md "Microsoft Entra ID"): the same figures, the lower bound
 * from Graph's resource units (bench-tenant.ts) with the units the simulator counted.
 */
async function benchEntra(
  users: number,
  rateLimits: 'none' | 'enterprise',
  values: { json?: boolean; include?: string },
  profileDir: string | undefined,
  log: (line: string) => void,
): Promise<void> {
  const bench = await startBenchTenant({ users, rateLimits, log, cpuProfileDir: profileDir });
  const { tenant, service } = bench;
  let printed: { result: Record<string, unknown>; byEndpoint: Record<string, number> };
  let cpu: BackupCpu;
  let records: number;
  try {
    const before = graphCounters(tenant);
    const serviceCpuBefore = service.cpuSeconds();
    const simulatorCpuBefore = process.cpuUsage();
    const stopCpu = watchBackupCpu(service, profileDir);
    const { backupId, seconds } = await bench.backup(
      values.include ? { include: values.include.split(',') } : {},
    );
    cpu = stopCpu();
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
      service_cpu_by_thread: cpu.byThread,
    };
    records = await recordCount(bench.api, backupId);
    printed = { result, byEndpoint };
  } finally {
    await bench.close();
  }
  printPhases(printed, cpu.phases(records), values.json ?? false);
}

await main();
