import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort } from '@app/platform/bootstrap/free-port.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { RESTORE_SCOPES, runRestore } from './support/restore-helpers.js';
import { parsePrometheusText, sampleValue, type MetricFamily } from './support/prometheus-text.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { DataSource } from 'typeorm';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

describe('Prometheus metrics and probes after one backup (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;
  let backup: BackupDto;
  let metricsUrl: string;
  let throttledBySimulator: number;

  const scrape = async (): Promise<{ status: number; contentType: string | null; text: string }> => {
    const response = await fetch(metricsUrl);
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      text: await response.text(),
    };
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 40, groups: 5, apps: 3, seed: 34 });
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    ctx = await startTestApp({ ...org.env, METRICS_PORT: String(metricsPort) });
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    // Bursts of 429s during the backup, for the rate-limit counters.
    org.sim.setFaults({ throttleRate: 0.05, seed: 34 });
    const before = org.sim.requestLog().status429;
    backup = await runBackup(ctx, admin.token, { connectionId });
    throttledBySimulator = org.sim.requestLog().status429 - before;
    org.sim.setFaults({});
    expect(backup.status).toBe('completed');
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('is served on its own port, not on the API port', async () => {
    const onApi = await ctx.http.get('/metrics');
    expect(onApi.status).toBe(404);
    const { status, contentType } = await scrape();
    expect(status).toBe(200);
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('exports every metric the example alert rules use (deploy/prometheus-alerts.yml)', async () => {
    const families = parsePrometheusText((await scrape()).text);
    const rules = parse(readFileSync('deploy/prometheus-alerts.yml', 'utf8')) as {
      groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
    };
    const used = rules.groups
      .flatMap((group) => group.rules)
      .flatMap((rule) => rule.expr.match(/\b(?:idp|http)_[a-z0-9_]+/g) ?? []);
    expect(used.length).toBeGreaterThan(3);
    for (const name of new Set(used)) {
      expect([name, name.replace(/_(bucket|count|sum)$/, '')].some((family) => families.has(family))).toBe(
        true,
      );
    }
  });

  it('parses as the text format and counts the completed backup, its duration, objects and bytes', async () => {
    const families = parsePrometheusText((await scrape()).text);
    const okta = { provider: 'okta' };
    expect(sampleValue(families, 'idp_backups_started_total', okta)).toBe(1);
    expect(sampleValue(families, 'idp_backups_completed_total', okta)).toBe(1);
    expect(sampleValue(families, 'idp_backups_failed_total', okta)).toBe(0);
    expect(sampleValue(families, 'idp_restores_started_total', okta)).toBe(0);
    expect(families.get('idp_backup_duration_seconds')?.type).toBe('histogram');
    expect(sampleValue(families, 'idp_backup_duration_seconds_count', okta)).toBe(1);
    const seconds = sampleValue(families, 'idp_backup_duration_seconds_sum', okta)!;
    const wall = (Date.parse(backup.completed_at!) - Date.parse(backup.started_at)) / 1000;
    expect(seconds).toBeCloseTo(wall, 2);
    expect(seconds).toBeGreaterThan(0);
    const objects = Object.values(backup.resource_counts).reduce((sum, n) => sum + n, 0);
    expect(sampleValue(families, 'idp_backup_objects_sum', okta)).toBe(objects);
    expect(sampleValue(families, 'idp_backup_size_bytes_sum', okta)).toBe(Number(backup.size));
    const last = sampleValue(families, 'idp_backup_last_success_timestamp_seconds', {
      connection_id: connectionId,
    })!;
    expect(last * 1000).toBeCloseTo(Date.parse(backup.completed_at!), -1);
  });

  it("counts the provider's 429s and the waits after them by bucket", async () => {
    const families = parsePrometheusText((await scrape()).text);
    const throttled = families.get('idp_provider_throttled_total')?.samples ?? [];
    const okta = throttled.filter((sample) => sample.labels.provider === 'okta');
    expect(throttledBySimulator).toBeGreaterThan(0);
    expect(okta.reduce((sum, sample) => sum + sample.value, 0)).toBe(throttledBySimulator);
    expect(okta.every((sample) => /^(GET|POST|PUT|DELETE) \/api\/v1\//.test(sample.labels.bucket))).toBe(
      true,
    );
    const waits = families.get('idp_provider_throttle_wait_seconds_total')?.samples ?? [];
    expect(waits.reduce((sum, sample) => sum + sample.value, 0)).toBeGreaterThan(0);
  });

  it('counts HTTP requests by route template and status, with a latency histogram', async () => {
    expect((await ctx.http.get(`/api/no-such-route/${backup.id}`)).status).toBe(404);
    const families = parsePrometheusText((await scrape()).text);
    const byTemplate = { method: 'GET', route: '/api/backup/:id', status: '200' };
    expect(sampleValue(families, 'http_requests_total', byTemplate)).toBe(1);
    expect(sampleValue(families, 'http_request_duration_seconds_count', byTemplate)).toBe(1);
    const series = (family: MetricFamily | undefined): string[] =>
      (family?.samples ?? []).map((sample) => sample.labels.route!);
    expect(series(families.get('http_requests_total'))).not.toContain(`/api/backup/${backup.id}`);
    // This one and the first test's GET /metrics on the API port.
    expect(sampleValue(families, 'http_requests_total', { route: 'unmatched', status: '404' })).toBe(2);
    expect(
      sampleValue(families, 'http_requests_total', { route: '/api/backup/status', status: '200' }),
    ).toBeGreaterThan(0);
  });

  it('shows the job queues it reads from pg-boss', async () => {
    const families = parsePrometheusText((await scrape()).text);
    expect(families.get('idp_job_queue_depth')?.type).toBe('gauge');
    expect(families.get('idp_job_queue_oldest_age_seconds')?.type).toBe('gauge');
  });

  it('counts a backup the provider refuses as failed, and leaves the last success where it was', async () => {
    const revoked = await new SimulatorClient(org.sim).call(
      'DELETE',
      `/integrations/api/v1/api-services/${org.integration.clientId}`,
    );
    expect(revoked.status).toBe(204);
    expect((await runBackup(ctx, admin.token, { connectionId })).status).toBe('failed');
    const families = parsePrometheusText((await scrape()).text);
    const okta = { provider: 'okta' };
    expect(sampleValue(families, 'idp_backups_started_total', okta)).toBe(2);
    expect(sampleValue(families, 'idp_backups_failed_total', okta)).toBe(1);
    expect(sampleValue(families, 'idp_backups_completed_total', okta)).toBe(1);
    expect(sampleValue(families, 'idp_backup_duration_seconds_count', okta)).toBe(1);
    const last = sampleValue(families, 'idp_backup_last_success_timestamp_seconds', {
      connection_id: connectionId,
    })!;
    expect(last * 1000).toBeCloseTo(Date.parse(backup.completed_at!), -1);
  });

  it('/livez and /readyz answer 200 with every check, public, beside /api/health', async () => {
    expect((await ctx.http.get('/livez')).body).toEqual({ status: 'ok' });
    const ready = await ctx.http.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', object_store: 'ok', workers: 'ok' },
    });
    expect((await ctx.http.get('/api/health')).body).toMatchObject({ status: 'ok' });
  });

  it('/readyz answers 503 while the database is unreachable and 200 once it is back; /livez stays 200', async () => {
    const database = ctx.app.get(DataSource);
    await database.destroy();
    try {
      const down = await ctx.http.get('/readyz');
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({
        error: 'Not ready: database unreachable, migrations not applied',
        code: 'not_ready',
      });
      expect((await ctx.http.get('/livez')).status).toBe(200);
      // The metrics listener still serves what it holds, and says the database was not read.
      const families = parsePrometheusText((await scrape()).text);
      expect(sampleValue(families, 'idp_backups_completed_total', { provider: 'okta' })).toBe(1);
      expect(sampleValue(families, 'idp_database_up')).toBe(0);
    } finally {
      if (!database.isInitialized) await database.initialize();
    }
    expect((await ctx.http.get('/readyz')).status).toBe(200);
    expect(sampleValue(parsePrometheusText((await scrape()).text), 'idp_database_up')).toBe(1);
  });

  it('the parser refuses what is not the text format (so the checks above can fail)', () => {
    expect(() => parsePrometheusText('x_total 1\n')).toThrow(/untyped family/);
    expect(() => parsePrometheusText('# TYPE x counter\nx{a="1" 1\n')).toThrow(/not a sample/);
    expect(() =>
      parsePrometheusText(
        '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n',
      ),
    ).toThrow(/cumulative/);
  });
});

describe('Prometheus metrics of a restore (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let metricsUrl: string;

  beforeAll(async () => {
    org = await startTestOrg({ users: 10, groups: 2, apps: 1, seed: 36 }, RESTORE_SCOPES);
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    ctx = await startTestApp({ ...org.env, METRICS_PORT: String(metricsPort) });
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('counts the restore started and completed by provider, and its pre-restore backup', async () => {
    const admin = await ctx.newClient({ role: 'admin' });
    const connectionId = await createConnection(ctx, admin.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    const backup = await runBackup(ctx, admin.token, { connectionId });
    const restored = await runRestore(ctx, admin.token, { backupId: backup.id, mode: 'full' });
    expect(restored.restore.status).toBe('completed');
    const families = parsePrometheusText(await (await fetch(metricsUrl)).text());
    const okta = { provider: 'okta' };
    expect(sampleValue(families, 'idp_restores_started_total', okta)).toBe(1);
    expect(sampleValue(families, 'idp_restores_completed_total', okta)).toBe(1);
    expect(sampleValue(families, 'idp_restores_partial_total', okta)).toBe(0);
    expect(sampleValue(families, 'idp_restores_failed_total', okta)).toBe(0);
    // The backup, then the one the restore takes of the org before writing to it.
    expect(sampleValue(families, 'idp_backups_completed_total', okta)).toBe(2);
  });
});
