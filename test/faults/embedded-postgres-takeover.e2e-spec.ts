import { afterAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@app/platform/bootstrap/free-port.js';
import { startServiceProcess, type ServiceProcess } from '@test/support/service-process.js';

/** True when process `pid` exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The postmaster's pid from `postmaster.pid`, or 0 when the file is gone. */
function postmasterPid(dataDir: string): number {
  const file = join(dataDir, 'pg', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : 0;
}

/**
 * The service killed with SIGKILL while it runs the embedded PostgreSQL (docs/operations.md "When a
 * dependency fails", fault suite): its cluster outlives it. The next start stops that orphan and starts a
 * cluster it owns, serves, and on a normal stop leaves no PostgreSQL process behind.
 */
describe('the embedded PostgreSQL after its service was killed', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'idp-backup-orphan-'));
  const processes: ServiceProcess[] = [];
  const orphans: number[] = [];

  afterAll(async () => {
    for (const child of processes) await child.kill('SIGKILL');
    for (const pid of [...orphans, postmasterPid(dataDir)])
      if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is taken over by the next start, which stops it when it stops', async () => {
    const env = async () => ({
      ROLE: 'all',
      NODE_ENV: 'test',
      DATABASE_URL: '', // the embedded cluster (src/platform/bootstrap/database-url.ts)
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      PORT: String(await freePort()),
      MASTER_KEY: masterKey,
      LOG_LEVEL: 'log',
    });
    const masterKey = randomBytes(32).toString('base64');
    const first = await startServiceProcess(await env(), 120_000);
    processes.push(first);
    const orphan = postmasterPid(dataDir);
    orphans.push(orphan);
    expect(alive(orphan)).toBe(true);

    expect(await first.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    expect(alive(orphan)).toBe(true); // nothing stopped it

    const second = await startServiceProcess(await env(), 120_000);
    processes.push(second);
    expect(second.output()).toMatch(
      /Stopping the embedded PostgreSQL \(pid \d+\) that a killed process left running/,
    );
    expect(alive(orphan)).toBe(false);
    const owned = postmasterPid(dataDir);
    expect(owned).not.toBe(orphan);
    expect(alive(owned)).toBe(true);
    // It serves on the data the first one wrote.
    const health = await fetch(
      `http://127.0.0.1:${/Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(second.output())![1]}/api/health`,
    );
    expect(health.status).toBe(200);

    expect(await second.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(alive(owned)).toBe(false);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    expect(existsSync(join(dataDir, 'pg.owner'))).toBe(false);
  }, 300_000);
});
