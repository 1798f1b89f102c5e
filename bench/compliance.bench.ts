import { isDeepStrictEqual, parseArgs } from 'node:util';
import { round, startBenchOrg } from './bench-org.js';
import { startBenchTenant } from './bench-tenant.js';

/** Repeated figures are the median of this many calls. */
const RUNS = 5;
/** Connections the readiness score is computed over (the target in docs/compliance.md). */
const CONNECTIONS = 100;

interface ComplianceReport {
  score: number;
  findings: unknown[];
}

/**
 * `npm run bench:compliance -- [--users N] [--framework F] [--provider okta|entra_id] [--json] [--cpu-prof-dir DIR]`:
 * backs up a generated org (`--provider entra_id`: a generated Entra tenant, which the service is
 * not restarted for and whose readiness figure is left out: the Entra bench has one connection),
 * restarts the service (so its memory is the check's own), then times through the API a
 * compliance check of that backup (computed: every snapshot part streamed once), the same request
 * again (served from the stored result), and GET /api/scores/readiness over 100 connections of
 * the team (one backed up, 99 without a backup yet). `check_cpu_ms` is the CPU the service used
 * for the first check (every thread), which a loaded machine changes less than the wall time.
 * Memory of the first check: how far the V8
 * heap in use rose (`heap_growth_mb`, from the service's `--trace-gc` lines) and the resident set
 * grew (`check_rss_growth_mb`, peak reset first) above where they stood before it, MB (docs/compliance.md
 * "Performance"). `--cpu-prof-dir DIR` makes the service write a V8 CPU profile there.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '100000' },
      framework: { type: 'string', default: 'pci_dss' },
      provider: { type: 'string', default: 'okta' },
      json: { type: 'boolean', default: false },
      'cpu-prof-dir': { type: 'string' },
    },
    strict: true,
  });
  const users = Number(values.users);
  if (!Number.isInteger(users) || users < 100)
    throw new Error('--users must be a whole number of at least 100');
  if (values.provider !== 'okta' && values.provider !== 'entra_id')
    throw new Error('--provider must be okta or entra_id');
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);

  const options = {
    users,
    rateLimits: 'none',
    log: () => {},
    cpuProfileDir: values['cpu-prof-dir'],
    traceGc: true,
  } as const;
  const okta = values.provider === 'okta' ? await startBenchOrg(options) : null;
  const bench = okta ?? (await startBenchTenant(options));
  try {
    const { seconds } = await bench.backup();
    log(`backup of ${users} users: ${round(seconds)} s`);
    await okta?.restartService();

    const body = { connectionId: bench.connectionId, framework: values.framework };
    const check = () => bench.api.post<ComplianceReport>('/api/compliance/check', body);
    bench.service.resetPeakRss();
    bench.service.resetHeapPeak();
    const rssBefore = bench.service.peakRssMb();
    const cpuBefore = bench.service.cpuSeconds();
    const started = performance.now();
    const first = await check();
    const checkMs = Math.round(performance.now() - started);
    const checkCpuMs = Math.round((bench.service.cpuSeconds() - cpuBefore) * 1000);
    const rssGrowth = bench.service.peakRssMb() - rssBefore;
    const heapGrowth = bench.service.heapGrowthMb();
    if (first.findings.length === 0) throw new Error('the check answered no findings');
    log(`check: ${checkMs} ms, score ${first.score}, ${first.findings.length} findings`);
    const repeatMs = await median(async () => {
      const again = await check();
      // Key order may differ (PostgreSQL jsonb orders keys): compare values.
      if (!isDeepStrictEqual([again.score, again.findings], [first.score, first.findings]))
        throw new Error('the repeated check answered other findings');
    });

    const readinessMs = okta ? await readiness(okta) : null;

    const result = {
      users,
      provider: values.provider,
      framework: values.framework,
      check_ms: checkMs,
      check_cpu_ms: checkCpuMs,
      heap_growth_mb: heapGrowth ?? null,
      check_rss_growth_mb: rssGrowth,
      repeat_ms: repeatMs,
      readiness_connections: okta ? CONNECTIONS : null,
      readiness_ms: readinessMs,
    };
    if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else
      process.stdout.write(
        `${Object.entries(result)
          .map(([key, value]) => `${key.padEnd(22)} ${value}`)
          .join('\n')}\n`,
      );
  } finally {
    await bench.close();
  }
}

/** Median wall milliseconds of GET /api/scores/readiness over CONNECTIONS connections of the team. */
async function readiness(bench: Awaited<ReturnType<typeof startBenchOrg>>): Promise<number> {
  for (let count = 1; count < CONNECTIONS; count += 1) await bench.addConnection(`Bench connection ${count}`);
  return median(async () => {
    const answer = await bench.api.get<{ perConnection: unknown[] }>('/api/scores/readiness');
    if (answer.perConnection.length !== CONNECTIONS)
      throw new Error(`readiness covered ${answer.perConnection.length} connections`);
  });
}

/** Median wall milliseconds of RUNS calls. */
async function median(call: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return Math.round(times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]);
}

await main();
