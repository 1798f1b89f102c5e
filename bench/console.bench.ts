import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { chromium, type Page } from 'playwright-core';
import { freePort } from '@app/platform/bootstrap/free-port.js';
import { round } from './bench-org.js';

const BACKUPS = 10_000;
const CHANGES = 10_000;
const TYPES = ['group', 'user', 'app', 'policy', 'group_rule', 'authenticator', 'network_zone'];
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
const CONNECTION = {
  id: '00000000-0000-4000-8000-000000000001',
  provider: 'okta',
  org_url: 'https://bench.okta.example',
  org_name: 'Bench org',
};

/**
 * `npm run bench:console -- [--json]`: the console's own costs, in Debian's Chromium (headless,
 * playwright-core), from the production build (console/dist):
 * - the initial JavaScript, gzipped (the entry script and its preloaded chunks), target < 250 kB;
 * - the time from navigation to the first row of the backups list when the team holds 10,000
 *   backups (the list asks for one page with its stats), target < 1 s;
 * - the compare screen with 10,000 changes: from navigation until the list is rendered and
 *   scrolled to its last change, target < 1.5 s.
 * The API is a small HTTP server in this process answering documents of the API's shapes (schema
 * console/src/api/schema.d.ts), so the figures are the console's alone; the e2e suite
 * (test/console.e2e-spec.ts) drives the console against the real service.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } }, strict: true });
  const consoleDir = resolve(process.cwd(), 'console');
  const initialJsGzipKb = initialJsGzip(resolve(consoleDir, 'dist'));
  const { startConsoleServer } = (await import(
    pathToFileURL(resolve(consoleDir, 'server/console-server.js')).href
  )) as typeof import('@console/server/console-server.js');
  const api = createServer(answer);
  await new Promise<void>((done) => api.listen(0, '127.0.0.1', done));
  const apiUrl = `http://127.0.0.1:${(api.address() as { port: number }).port}`;
  const server = await startConsoleServer({ port: await freePort(), host: '127.0.0.1', apiUrl });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Warm the HTTP cache as a returning admin's browser has it; each figure is the best of three.
    await page.goto(`${server.url}/connections`);
    await page.getByRole('heading', { name: 'Connections' }).waitFor();
    const backupsFirstRowMs = await best(3, () => timeFirstBackupRow(page, server.url));
    const compareScrolledMs = await best(3, () => timeCompareScrolled(page, server.url));
    const figures = {
      initialJsGzipKb: round(initialJsGzipKb),
      backupsFirstRowMs: round(backupsFirstRowMs),
      compareScrolledMs: round(compareScrolledMs),
      backups: BACKUPS,
      changes: CHANGES,
    };
    if (values.json) process.stdout.write(`${JSON.stringify(figures)}\n`);
    else {
      process.stdout.write(`initial JS gzipped: ${figures.initialJsGzipKb} kB (target < 250)\n`);
      process.stdout.write(
        `first row of ${BACKUPS} backups: ${figures.backupsFirstRowMs} ms (target < 1000)\n`,
      );
      process.stdout.write(
        `compare, ${CHANGES} changes rendered and scrolled: ${figures.compareScrolledMs} ms (target < 1500)\n`,
      );
    }
  } finally {
    await browser.close();
    await server.close();
    api.close();
  }
}

/** kB (1,000 bytes) of the entry script and modulepreload chunks of dist/index.html, gzipped. */
function initialJsGzip(dist: string): number {
  const html = readFileSync(resolve(dist, 'index.html'), 'utf8');
  const scripts = [
    ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g),
  ].map((match) => match[1]);
  return (
    scripts.reduce((total, src) => total + gzipSync(readFileSync(resolve(dist, `.${src}`))).length, 0) / 1000
  );
}

async function best(times: number, measure: () => Promise<number>): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < times; i += 1) runs.push(await measure());
  return Math.min(...runs);
}

async function timeFirstBackupRow(page: Page, consoleUrl: string): Promise<number> {
  await page.goto('about:blank');
  const start = Date.now();
  await page.goto(`${consoleUrl}/backups`);
  await page.getByRole('table', { name: 'Backups' }).getByRole('row').nth(1).waitFor();
  return Date.now() - start;
}

async function timeCompareScrolled(page: Page, consoleUrl: string): Promise<number> {
  await page.goto('about:blank');
  const start = Date.now();
  await page.goto(`${consoleUrl}/compare?from=${backupId(1)}&to=${backupId(0)}`);
  const list = page.getByTestId('change-list');
  await list.getByTestId('change').first().waitFor();
  // Rows are measured as they render, so the end moves while scrolling: scroll until the last row is in.
  const last = list.locator(`[data-index="${CHANGES + TYPES.length - 1}"]`);
  while (!(await last.count())) {
    await list.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await page.waitForTimeout(16);
  }
  await last.waitFor();
  return Date.now() - start;
}

const backupId = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;

function backup(n: number) {
  const started = new Date(Date.UTC(2026, 11, 1) - n * 3_600_000).toISOString();
  return {
    id: backupId(n),
    connection_id: CONNECTION.id,
    connection: CONNECTION,
    status: 'completed',
    kind: 'full',
    base_backup_id: null,
    instance_id: null,
    progress_pct: 100,
    progress_message: 'Done',
    error_message: null,
    started_at: started,
    completed_at: started,
    storage_key: `bench/${n}`,
    resource_counts: { group: 40, user: 1000 },
    resource_types: ['group', 'user'],
    size: 1_048_576,
    sha256: null,
    triggered_by: 'schedule',
    include: null,
    include_workflows: false,
    requests: 12,
  };
}

function changes() {
  return Array.from({ length: CHANGES }, (_, i) => ({
    resourceType: TYPES[i % TYPES.length],
    action: 'modified',
    resource: {
      id: `id${i}`,
      name: `object ${i}`,
      changes: [{ op: 'replace', path: '/profile/description', value: `description ${i}` }],
    },
    // One severity per type, so sorting within a group keeps the object order by name.
    severity: SEVERITIES[(i % TYPES.length) % SEVERITIES.length],
    rule: 'bench',
  }));
}

let diffBody: string | undefined;

/** The API's answers for the routes these screens call, in the shapes of the OpenAPI document, with CORS for the console. */
function answer(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://bench');
  response.setHeader('access-control-allow-origin', request.headers.origin ?? '*');
  response.setHeader('access-control-allow-credentials', 'true');
  if (request.method === 'OPTIONS') {
    response.writeHead(204, {
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'content-type',
    });
    response.end();
    return;
  }
  const json = (body: string) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
  };
  request.resume();
  if (url.pathname === '/api/me') {
    const team = { id: CONNECTION.id, name: 'Bench team', role: 'viewer', permissions: ['view backups'] };
    return json(
      JSON.stringify({
        authenticated_by: 'session',
        user: null,
        client: null,
        teams: [team],
        current_team: team,
      }),
    );
  }
  if (url.pathname === '/api/connections')
    return json(
      JSON.stringify({
        connections: [
          {
            ...CONNECTION,
            client_id: 'bench',
            created_at: '2026-01-01T00:00:00Z',
            updated_at: '2026-01-01T00:00:00Z',
          },
        ],
      }),
    );
  if (url.pathname === '/api/backup/list') {
    const limit = Number(url.searchParams.get('limit') ?? 100);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const page = Array.from({ length: Math.max(0, Math.min(limit, BACKUPS - offset)) }, (_, i) =>
      backup(offset + i),
    );
    const stats =
      url.searchParams.get('includeStats') === 'true'
        ? {
            totalBackups: BACKUPS,
            completedBackups: BACKUPS,
            failedBackups: 0,
            successRate: 1,
            totalSize: BACKUPS * 1_048_576,
            resourceTypes: ['group', 'user'],
          }
        : null;
    return json(JSON.stringify({ backups: page, total: BACKUPS, stats }));
  }
  if (url.pathname === '/api/diff') return json((diffBody ??= diffDocument()));
  response.writeHead(404, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: 'Not found in the bench' }));
}

function diffDocument(): string {
  const all = changes();
  const count = (keep: (change: (typeof all)[number]) => boolean) => all.filter(keep).length;
  const side = (n: number) => ({
    backupId: backupId(n),
    connectionId: CONNECTION.id,
    startedAt: backup(n).started_at,
    completedAt: backup(n).completed_at,
  });
  return JSON.stringify({
    changes: all,
    summary: {
      from: side(1),
      to: side(0),
      sameConnection: true,
      total: CHANGES,
      byAction: { added: 0, modified: CHANGES, removed: 0 },
      bySeverity: Object.fromEntries(SEVERITIES.map((s) => [s, count((c) => c.severity === s)])),
      byType: Object.fromEntries(
        TYPES.map((type) => [
          type,
          { added: 0, modified: count((c) => c.resourceType === type), removed: 0 },
        ]),
      ),
      resourceTypes: TYPES,
      notCompared: [],
    },
  });
}

await main();
