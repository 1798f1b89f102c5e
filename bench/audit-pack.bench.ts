import { parseArgs } from 'node:util';
import { round, startBenchOrg } from './bench-org.js';
import { accessToken, drain, openSeedDatabase, seedAuditEvents, seedBackups } from './seed-rows.js';

/**
 * `npm run bench:audit-pack -- [--connections C] [--days D] [--audit-events N] [--runs R] [--prime] [--json]`
 * (docs/export.md: "a year of daily backups for 20 connections streams out with the service's RSS
 * growing by less than 30 MB"). Creates C connections (default 20) to a small generated org, backs
 * each up once for real (so the pack's compliance files check real snapshots), seeds D daily
 * backup records a connection before them (default 365) and N audit events (default 50,000)
 * directly in the service's database, then downloads POST /api/export/audit-pack for the whole
 * period R times (default 2) as an auditor, reading the ZIP to its end. Prints per run the wall
 * seconds, the ZIP's bytes, and how far the service's peak RSS and V8 heap rose above where they
 * stood before the request (MB); the first run is cold. `--prime` first downloads a pack of the
 * last hour, which computes and stores the compliance checks, so the measured runs are the
 * streaming's own.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      connections: { type: 'string', default: '20' },
      days: { type: 'string', default: '365' },
      'audit-events': { type: 'string', default: '50000' },
      runs: { type: 'string', default: '2' },
      prime: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const [connections, days, auditEvents, runs] = ['connections', 'days', 'audit-events', 'runs'].map(
    (name) => {
      const value = Number(values[name as keyof typeof values]);
      if (!Number.isInteger(value) || value < (name === 'audit-events' ? 0 : 1))
        throw new Error(`--${name} must be a whole number${name === 'audit-events' ? '' : ' of at least 1'}`);
      return value;
    },
  );
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);

  const bench = await startBenchOrg({ users: 100, rateLimits: 'none', log: () => {}, traceGc: true });
  const { db, teamId, ownerId, close } = await openSeedDatabase(bench);
  try {
    const connectionIds = [bench.connectionId];
    while (connectionIds.length < connections)
      connectionIds.push(await bench.addConnection(`Bench connection ${connectionIds.length}`));
    log(`backing up ${connections} connections...`);
    for (const connectionId of connectionIds) await bench.backup({ connectionId });
    log(`seeding ${days} daily backups of ${connections} connections and ${auditEvents} audit events...`);
    const target = { teamId, ownerId, connectionIds };
    await seedBackups(db, target, days, '1 day');
    await seedAuditEvents(db, target, auditEvents);
    const client = await bench.service.cli(['client:create', '--team', teamId, '--role', 'auditor']);
    const token = await accessToken(bench.service.baseUrl, client.client_id, client.client_secret);
    await bench.service.settle();

    const period = {
      from: new Date(Date.now() - (days + 1) * 86_400_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
    };
    const download = async (body: { from: string; to: string }): Promise<number> => {
      const response = await fetch(`${bench.service.baseUrl}/api/export/audit-pack`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status !== 200)
        throw new Error(`audit pack answered ${response.status}: ${await response.text()}`);
      return drain(response);
    };
    if (values.prime) {
      // A pack of the last hour computes and stores the compliance checks of the real backups.
      await download({ from: new Date(Date.now() - 3_600_000).toISOString(), to: period.to });
      await bench.service.settle();
    }
    const measured: Array<Record<string, number>> = [];
    for (let run = 0; run < runs; run += 1) {
      bench.service.resetPeakRss();
      bench.service.resetHeapPeak();
      const rssBefore = bench.service.peakRssMb();
      const started = performance.now();
      const bytes = await download(period);
      measured.push({
        seconds: round((performance.now() - started) / 1000),
        zip_bytes: bytes,
        rss_before_mb: rssBefore,
        rss_growth_mb: round(bench.service.peakRssMb() - rssBefore),
        heap_growth_mb: bench.service.heapGrowthMb() ?? 0,
      });
      log(`run ${run + 1}: ${JSON.stringify(measured.at(-1))}`);
    }
    const result = {
      connections,
      backups: connections * (days + 1),
      audit_events: auditEvents,
      runs: measured,
      max_seconds: Math.max(...measured.map((m) => m.seconds)),
      max_rss_growth_mb: Math.max(...measured.map((m) => m.rss_growth_mb)),
    };
    process.stdout.write(`${JSON.stringify(result, null, values.json ? undefined : 2)}\n`);
  } finally {
    await close();
    await bench.close();
  }
}

await main();
