import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { createConnection, runBackup } from './support/backup-helpers.js';

/**
 * LOG_FORMAT=json (docs/operations.md): every line the process writes while it serves a backup is one JSON
 * object, each request has its line with method, route template, status, duration and request id,
 * and no secret of the run (client secrets, the connection's credentials, the bearer token)
 * appears in any line.
 */
describe('JSON logs of a backup run (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  const lines: string[] = [];
  let restore: () => void;
  let backupRequestId: string;
  let backupId: string;
  let connectionId: string;

  beforeAll(async () => {
    // Everything Nest's logger writes, from the app's boot on.
    const writes = { out: process.stdout.write, err: process.stderr.write };
    const capture =
      (stream: NodeJS.WriteStream, original: typeof process.stdout.write) =>
      (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
        // Node's own process warnings (`(node:PID) ...Warning`) are the runtime's, not the service's.
        const own = String(chunk)
          .split('\n')
          .filter((line) => line && !/^\(node:\d+\)|^\(Use `node --trace-warnings/.test(line));
        lines.push(...own);
        return (original as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean).call(
          stream,
          chunk,
          ...rest,
        );
      };
    process.stdout.write = capture(process.stdout, writes.out) as typeof process.stdout.write;
    process.stderr.write = capture(process.stderr, writes.err) as typeof process.stderr.write;
    restore = () => {
      process.stdout.write = writes.out;
      process.stderr.write = writes.err;
    };
    org = await startTestOrg({ users: 20, groups: 3, apps: 2, seed: 35 });
    ctx = await startTestApp({ ...org.env, LOG_FORMAT: 'json', LOG_LEVEL: 'log' });
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    const backup = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');
    backupId = backup.id;
    const answer = await ctx.http
      .get(`/api/backup/${backup.id}`)
      .set('Authorization', `Bearer ${admin.token}`);
    backupRequestId = answer.headers['x-request-id'] as string;
    await ctx.http.get('/api/health').set('X-Request-Id', 'probe-1');
  });

  afterAll(async () => {
    restore?.();
    await ctx?.close();
    await org?.sim.close();
  });

  it('writes one JSON object a line', () => {
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });

  it('writes one line per request with method, route template, status, duration and request id', () => {
    const requests = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((e) => e.context === 'HTTP');
    expect(requests).toContainEqual(
      expect.objectContaining({
        method: 'GET',
        route: '/api/backup/:id',
        status: 200,
        duration_ms: expect.any(Number),
        request_id: backupRequestId,
      }),
    );
    expect(requests).toContainEqual(
      expect.objectContaining({ route: '/api/health', status: 200, request_id: 'probe-1' }),
    );
    expect(requests.every((entry) => typeof entry.request_id === 'string')).toBe(true);
  });

  it('names the job, its backup, team and connection on every line the backup job writes', () => {
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const job = entries.filter((entry) => entry.backup_id === backupId);
    expect(job.map((entry) => entry.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/started/), `backup ${backupId} completed`]),
    );
    for (const entry of job) {
      expect(entry).toMatchObject({
        queue: 'backup-run',
        job_id: expect.any(String),
        team_id: admin.teamId,
        connection_id: connectionId,
      });
    }
    expect(job.find((entry) => entry.status === 'completed')?.duration_ms).toEqual(expect.any(Number));
    // Lines written outside a job carry no job fields.
    expect(entries.filter((entry) => entry.context === 'HTTP').some((entry) => 'job_id' in entry)).toBe(
      false,
    );
  });

  it('holds no secret, token or credential of the run', () => {
    const log = lines.join('\n');
    const secrets = [org.integration.clientSecret, admin.clientSecret, admin.token, ctx.config.MASTER_KEY!];
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});
