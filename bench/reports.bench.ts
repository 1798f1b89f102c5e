import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { round, startBenchOrg } from './bench-org.js';

/** How often Chromium's memory is sampled while a report renders, ms. */
const SAMPLE_MS = 50;

/**
 * `npm run bench:reports -- [--users N] [--framework F] [--json]` (docs/export.md: "a compliance report
 * of a 100,000-user connection in < 5 s, the service's RSS under its 300 MB budget; Chromium is
 * its own process: report its RSS too"). Backs up a generated org, restarts the service (so its
 * memory is the report's own), then asks POST /api/export/report for a compliance report of the
 * connection twice: `cold` (the check is computed from the snapshot, Chromium starts) and `warm`
 * (the stored check, the browser running), downloading each PDF through its signed URL. Prints
 * per report the wall seconds at the client, the service's peak RSS (MB, and its
 * growth above the RSS before the request), and the peak of Chromium's processes (MB, sampled
 * every 50 ms: their RSS summed, which counts shared pages once per process, and their PSS
 * summed, what they use together); the PDF's bytes and pages (pdfinfo).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '100000' },
      framework: { type: 'string', default: 'pci_dss' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const users = Number(values.users);
  if (!Number.isInteger(users) || users < 100)
    throw new Error('--users must be a whole number of at least 100');
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);

  const bench = await startBenchOrg({ users, rateLimits: 'none', log: () => {} });
  try {
    const { seconds } = await bench.backup();
    log(`backup of ${users} users: ${round(seconds)} s`);
    await bench.restartService();
    const body = { type: 'compliance', framework: values.framework, connectionId: bench.connectionId };
    const measured: Record<string, unknown> = {};
    for (const run of ['cold', 'warm']) {
      const { service } = bench;
      service.resetPeakRss();
      const rssBefore = service.peakRssMb();
      const chromium = { rss: 0, pss: 0 };
      const sampler = setInterval(() => {
        const now = service.childrenMemoryMb();
        chromium.rss = Math.max(chromium.rss, now.rss);
        chromium.pss = Math.max(chromium.pss, now.pss);
      }, SAMPLE_MS);
      const started = performance.now();
      let pdf: Buffer;
      try {
        const { url } = await bench.api.post<{ url: string }>('/api/export/report', body);
        const response = await fetch(url);
        if (response.status !== 200) throw new Error(`download answered ${response.status}`);
        pdf = Buffer.from(await response.arrayBuffer());
      } finally {
        clearInterval(sampler);
      }
      measured[run] = {
        seconds: round((performance.now() - started) / 1000),
        pdf_bytes: pdf.length,
        pdf_pages: pages(pdf),
        service_rss_peak_mb: service.peakRssMb(),
        service_rss_growth_mb: round(service.peakRssMb() - rssBefore),
        chromium_rss_peak_mb: chromium.rss,
        chromium_pss_peak_mb: chromium.pss,
      };
      log(`${run}: ${JSON.stringify(measured[run])}`);
    }
    const result = { users, framework: values.framework, ...measured };
    process.stdout.write(`${JSON.stringify(result, null, values.json ? undefined : 2)}\n`);
  } finally {
    await bench.close();
  }
}

/** The PDF's page count as poppler's pdfinfo reads it, or null without poppler-utils. */
function pages(pdf: Buffer): number | null {
  const dir = mkdtempSync(join(tmpdir(), 'report-bench-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    const info = execFileSync('pdfinfo', [join(dir, 'r.pdf')], { encoding: 'utf8' });
    return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? NaN);
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
