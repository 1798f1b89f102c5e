import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BackupRetentionJob } from '@app/backups/backup-retention.job.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** An `api` replica enqueues without working jobs, so the queue keeps what was enqueued. */
describe('the hourly retention run', () => {
  let ctx: TestApp;

  beforeAll(async () => {
    ctx = await startTestApp({ ROLE: 'api' });
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('is enqueued once per hour however many replicas tick', async () => {
    const sut = ctx.app.get(BackupRetentionJob);
    const first = await sut.enqueue(new Date('2026-11-22T05:17:00Z'));
    expect(first).toEqual(expect.any(String));
    expect(await sut.enqueue(new Date('2026-11-22T05:17:02Z'))).toBeNull();
    expect(await sut.enqueue(new Date('2026-11-22T05:59:59Z'))).toBeNull();
    const next = await sut.enqueue(new Date('2026-11-22T06:17:00Z'));
    expect(next).toEqual(expect.any(String));
    expect(next).not.toBe(first);
  });
});
