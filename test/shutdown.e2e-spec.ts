import { afterAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@app/platform/bootstrap/free-port.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { startServiceProcess, startWorkerOf, type ServiceProcess } from './support/service-process.js';

/** Lines the service logged at error level (Nest's console logger writes the level as a word). */
const errorLines = (output: string): string[] => output.split('\n').filter((line) => /\bERROR\b/.test(line));

/**
 * Stopping the service (src/main.ts) as an orchestrator does, with SIGTERM: it stops the app and the
 * jobs it runs, then the database, and exits 0 without logging an error, on a configured database
 * (`DATABASE_URL`) as on the embedded one.
 */
describe('the service stopped with SIGTERM', () => {
  let ctx: TestApp | undefined;
  const processes: ServiceProcess[] = [];
  const dataDirs: string[] = [];

  afterAll(async () => {
    for (const child of processes) await child.kill('SIGKILL');
    await ctx?.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 on DATABASE_URL, logging no error', async () => {
    ctx = await startTestApp({ ROLE: 'api' });
    const worker = await startWorkerOf(ctx, {});
    processes.push(worker);

    const exit = await worker.kill('SIGTERM');

    expect({ exit, errors: errorLines(worker.output()) }).toEqual({
      exit: { code: 0, signal: null },
      errors: [],
    });
  });

  it('exits 0 on the embedded PostgreSQL, logging no error, and stops that cluster', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'idp-backup-shutdown-'));
    dataDirs.push(dataDir);
    const service = await startServiceProcess(
      {
        ROLE: 'all',
        NODE_ENV: 'test',
        // Empty: the embedded cluster, as on a fresh machine (src/platform/bootstrap/database-url.ts).
        DATABASE_URL: '',
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(await freePort()),
        PORT: String(await freePort()),
        MASTER_KEY: randomBytes(32).toString('base64'),
        LOG_LEVEL: 'log',
      },
      120_000,
    );
    processes.push(service);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(true);

    const exit = await service.kill('SIGTERM');

    expect({
      exit,
      errors: errorLines(service.output()),
      postmasterRunning: existsSync(join(dataDir, 'pg', 'postmaster.pid')),
    }).toEqual({ exit: { code: 0, signal: null }, errors: [], postmasterRunning: false });
  }, 180_000);
});
