import { parseArgs } from 'node:util';
import { round, startBenchOrg } from './bench-org.js';
import { accessToken, drain, openSeedDatabase, seedAuditEvents, seedBackups } from './seed-rows.js';

/**
 * `npm run bench:export -- [--audit-events N] [--backups B] [--runs R] [--json]` (docs/account.md
 * "Account data export": a team with 100,000 audit events and 10,000 backups exports in under
 * 5 s while the service's RSS grows by less than 30 MB). Seeds the team's rows directly in the
 * service's database, then downloads GET /api/account/export R times (default 2; the 7-day
 * limit's record is removed between runs), each time reading the body to its end. Prints, per
 * run, the wall seconds at the client, the bytes, and how far the service's peak RSS rose above
 * its RSS before the request (MB); the first run is cold (nothing of the route warmed up).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'audit-events': { type: 'string', default: '100000' },
      backups: { type: 'string', default: '10000' },
      runs: { type: 'string', default: '2' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const auditEvents = Number(values['audit-events']);
  const backups = Number(values.backups);
  const runs = Number(values.runs);
  if (!Number.isInteger(auditEvents) || auditEvents < 0)
    throw new Error('--audit-events must be a whole number');
  if (!Number.isInteger(backups) || backups < 0) throw new Error('--backups must be a whole number');
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be at least 1');
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);

  const bench = await startBenchOrg({ users: 100, rateLimits: 'none', log: () => {}, traceGc: true });
  const { db, teamId, ownerId, close } = await openSeedDatabase(bench);
  try {
    log(`seeding ${auditEvents} audit events and ${backups} backups...`);
    const target = { teamId, ownerId, connectionIds: [bench.connectionId] };
    await seedBackups(db, target, backups, '1 hour');
    await seedAuditEvents(db, target, auditEvents);
    const client = await bench.service.cli(['client:create', '--team', teamId, '--role', 'auditor']);
    const token = await accessToken(bench.service.baseUrl, client.client_id, client.client_secret);

    const measured: Array<{
      seconds: number;
      bytes: number;
      rss_before_mb: number;
      rss_growth_mb: number;
      heap_growth_mb: number;
    }> = [];
    for (let run = 0; run < runs; run += 1) {
      await db.query('DELETE FROM account_exports WHERE team_id = $1', [teamId]);
      bench.service.resetPeakRss();
      bench.service.resetHeapPeak();
      const rssBefore = bench.service.peakRssMb();
      const started = performance.now();
      const bytes = await download(`${bench.service.baseUrl}/api/account/export`, token);
      const seconds = (performance.now() - started) / 1000;
      measured.push({
        seconds: round(seconds),
        bytes,
        rss_before_mb: round(rssBefore),
        rss_growth_mb: round(bench.service.peakRssMb() - rssBefore),
        heap_growth_mb: round(bench.service.heapGrowthMb() ?? 0),
      });
      log(`run ${run + 1}: ${JSON.stringify(measured.at(-1))}`);
    }

    const result = {
      audit_events: auditEvents,
      backups,
      runs: measured,
      max_seconds: Math.max(...measured.map((m) => m.seconds)),
      max_rss_growth_mb: Math.max(...measured.map((m) => m.rss_growth_mb)),
    };
    if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await close();
    await bench.close();
  }
}

/** Downloads the export, reading its body to its end without keeping it. @returns its length in bytes */
async function download(url: string, token: string): Promise<number> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`export answered ${response.status}`);
  return drain(response);
}

await main();
