import { isDeepStrictEqual, parseArgs } from 'node:util';
import { round, startBenchOrg } from './bench-org.js';

/** Repeated figures are the median of this many calls. */
const RUNS = 5;
/** Connections the readiness score is computed over (the target in docs/compliance.md). */
const CONNECTIONS = 100;

interface ComplianceReport {
  score: number;
  findings: unknown[];
}

/**
 * `npm run bench:compliance -- [--users N] [--framework F] [--json] [--cpu-prof-dir DIR]`: backs up a generated org,
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
      json: { type: 'boolean', default: false },
      'cpu-prof-dir': { type: 'string' },
    },
    strict: true,
  });
  const users = Number(values.users);
  if (!Number.isInteger(users) || users < 100)
    throw new Error('--users must be a whole number of at least 100');
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);

  const bench = await startBenchOrg({
    users,
    rateLimits: 'none',
    log: () => {},
    cpuProfileDir: values['cpu-prof-dir'],
    traceGc: true,
  });
  try {
    const { seconds } = await bench.backup();
    log(`backup of ${users} users: ${round(seconds)} s`);
    await bench.restartService();

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

    for (let count = 1; count < CONNECTIONS; count += 1)
      await bench.addConnection(`Bench connection ${count}`);
    const readinessMs = await median(async () => {
      const readiness = await bench.api.get<{ perConnection: unknown[] }>('/api/scores/readiness');
      if (readiness.perConnection.length !== CONNECTIONS)
        throw new Error(`readiness covered ${readiness.perConnection.length} connections`);
    });

    const result = {
      users,
      framework: values.framework,
      check_ms: checkMs,
      check_cpu_ms: checkCpuMs,
      heap_growth_mb: heapGrowth ?? null,
      check_rss_growth_mb: rssGrowth,
      repeat_ms: repeatMs,
      readiness_connections: CONNECTIONS,
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
