import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { BackupRetentionJob } from '@app/backups/backup-retention.job.js';
import { createObjectStore } from '@libs/object-store/create-object-store.js';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import { startS3rver, type RunningS3rver } from '@libs/object-store/testing/s3rver.js';
import { MANIFEST_NAME } from '@libs/snapshot/snapshot-layout.js';
import { createConnection, runBackup, startBackup, waitForBackup } from '@test/support/backup-helpers.js';
import { startTestOrg, type TestOrg } from '@test/support/okta-org.js';
import { startS3FaultProxy, type S3FaultProxy } from '@test/support/s3-fault-proxy.js';
import { startTestApp, type TestApp, type TestClient } from '@test/support/test-app.js';

const BUCKET = 'idp-backup-faults';
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Every object key under `prefix`. */
async function keysUnder(store: ObjectStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of store.list(prefix)) keys.push(entry.key);
  return keys.sort();
}

/** Starts a backup and waits until its status says it is waiting to retry after `reason`. */
async function startUntilRetrying(ctx: TestApp, client: TestClient, connectionId: string, reason: RegExp) {
  const backupId = await startBackup(ctx, client.token, { connectionId });
  for (;;) {
    const status = await ctx.http
      .get('/api/backup/status')
      .query({ backupId })
      .set('Authorization', `Bearer ${client.token}`);
    expect(status.body.status).toBe('running');
    if (/^Retrying after: /.test(status.body.progress_message)) {
      expect(status.body.progress_message).toMatch(reason);
      return backupId;
    }
    await pause(100);
  }
}

/**
 * The object store failing while a backup writes (docs/operations.md "When a dependency fails", fault suite):
 * S3 answering 503 and 500 (s3rver behind a proxy that answers S3's errors), and a filesystem store on a full
 * disk (a small tmpfs). The backup says why it waits or failed, retries and completes once the store is
 * back, or ends failed; either way it leaves no object outside a complete snapshot.
 */
describe('the object store failing during a backup', () => {
  let org: TestOrg;

  beforeAll(async () => {
    org = await startTestOrg({ users: 30, groups: 4, apps: 2, seed: 36 });
  });

  afterAll(async () => {
    await org?.sim.close();
  });

  describe('S3', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idp-backup-s3-faults-'));
    let s3: RunningS3rver;
    let proxy: S3FaultProxy;
    let direct: ObjectStore;
    let ctx: TestApp;
    let admin: TestClient;
    let connectionId: string;

    beforeAll(async () => {
      s3 = await startS3rver(dir, BUCKET);
      proxy = await startS3FaultProxy(s3.endpoint);
      direct = await createObjectStore({
        driver: 's3',
        bucket: BUCKET,
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
      });
      ctx = await startTestApp({
        ...org.env,
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: proxy.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      });
      admin = await ctx.newClient({ role: 'admin' });
      connectionId = await createConnection(ctx, admin.token, {
        baseUrl: org.sim.baseUrl,
        ...org.integration,
      });
    });

    afterAll(async () => {
      await ctx?.close();
      await proxy?.close();
      await s3?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('waits out 503 SlowDown, says so, then completes with nothing beside the snapshot', async () => {
      proxy.fail(503);
      const backupId = await startUntilRetrying(
        ctx,
        admin,
        connectionId,
        /^Retrying after: Storing the snapshot failed: S3 answered 503 SlowDown (listing|writing) ".*" after 3 attempts$/,
      );
      proxy.fail(null);
      expect(await waitForBackup(ctx, admin.token, backupId, 60_000)).toMatchObject({ status: 'completed' });
      // The same objects, by name, as a backup of the same org that met no fault: nothing left by
      // the failed attempt beside the snapshot.
      const clean = await runBackup(ctx, admin.token, { connectionId });
      const objects = async (id: string) => {
        const { storage_key } = (
          await ctx.http.get(`/api/backup/${id}`).set('Authorization', `Bearer ${admin.token}`)
        ).body.backup as { storage_key: string };
        return (await keysUnder(direct, storage_key)).map((key) => key.slice(storage_key.length));
      };
      const keys = await objects(backupId);
      expect(keys).toContain(MANIFEST_NAME);
      expect(keys).toEqual(await objects(clean.id));
      const diff = await ctx.http
        .get('/api/diff')
        .query({ fromBackupId: backupId, toBackupId: backupId })
        .set('Authorization', `Bearer ${admin.token}`);
      expect(diff.status).toBe(200);
    }, 120_000);

    it('ends failed with the reason when S3 answers 500 through every retry, and writes nothing', async () => {
      proxy.fail(500);
      const backupId = await startUntilRetrying(ctx, admin, connectionId, /S3 answered 500 InternalError/);
      const ended = await waitForBackup(ctx, admin.token, backupId, 90_000);
      proxy.fail(null);
      expect(ended).toMatchObject({
        status: 'failed',
        error_message: expect.stringMatching(
          /^Storing the snapshot failed: S3 answered 500 InternalError (listing|writing) ".*" after 3 attempts$/,
        ),
      });
      const backup = (
        await ctx.http.get(`/api/backup/${backupId}`).set('Authorization', `Bearer ${admin.token}`)
      ).body.backup as { storage_key: string };
      expect(await keysUnder(direct, backup.storage_key)).toEqual([]);
      // And the store back, the next backup completes.
      expect((await runBackup(ctx, admin.token, { connectionId })).status).toBe('completed');
    }, 150_000);

    it('deletes what a backup wrote before S3 went down for good, once S3 is back (the retention run)', async () => {
      // A few snapshot objects written, then S3 down through every retry and the failure's cleanup.
      proxy.failAfterWrites(3, 500);
      const backupId = await startBackup(ctx, admin.token, { connectionId });
      const ended = await waitForBackup(ctx, admin.token, backupId, 90_000);
      expect(ended).toMatchObject({
        status: 'failed',
        error_message: expect.stringMatching(/^Storing the snapshot failed: S3 answered 500 InternalError/),
      });
      proxy.fail(null);
      const { storage_key } = (
        await ctx.http.get(`/api/backup/${backupId}`).set('Authorization', `Bearer ${admin.token}`)
      ).body.backup as { storage_key: string };
      const left = await keysUnder(direct, storage_key);
      expect(left.length).toBeGreaterThan(0); // the outage kept the failure from deleting them

      await ctx.app.get(BackupRetentionJob).handle();
      expect(await keysUnder(direct, storage_key)).toEqual([]);
      // The backup stays on record as failed; nothing else was touched.
      const after = await ctx.http
        .get(`/api/backup/${backupId}`)
        .set('Authorization', `Bearer ${admin.token}`);
      expect(after.body.backup).toMatchObject({ status: 'failed' });
    }, 150_000);
  });

  describe('the filesystem store on a full disk', () => {
    const mount = mkdtempSync(join(tmpdir(), 'idp-backup-full-disk-'));
    let ctx: TestApp;
    let admin: TestClient;
    let connectionId: string;
    const filler = join(mount, 'filler');

    beforeAll(async () => {
      // A 4 MiB tmpfs (needs root, as this suite runs in CI), filled but for 16 KiB.
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mount]);
      mkdirSync(join(mount, 'objects'));
      const { bavail, bsize } = statfsSync(mount);
      writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 16 * 1024)));
      ctx = await startTestApp({ ...org.env, DATA_DIR: mount });
      admin = await ctx.newClient({ role: 'admin' });
      connectionId = await createConnection(ctx, admin.token, {
        baseUrl: org.sim.baseUrl,
        ...org.integration,
      });
    });

    afterAll(async () => {
      await ctx?.close();
      execFileSync('umount', ['-l', mount]);
      rmSync(mount, { recursive: true, force: true });
    });

    /** Files under the store's root, besides the filler. */
    const files = (root: string): string[] =>
      readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => relative(root, join(entry.parentPath, entry.name)));

    it('fails with "no space left", leaves no file behind, and completes once there is room', async () => {
      const backupId = await startUntilRetrying(
        ctx,
        admin,
        connectionId,
        /no space left on the device \(ENOSPC\)/,
      );
      const ended = await waitForBackup(ctx, admin.token, backupId, 90_000);
      expect(ended).toMatchObject({
        status: 'failed',
        error_message: expect.stringMatching(
          /^Storing the snapshot failed: The filesystem object store failed writing ".*": no space left on the device \(ENOSPC\)$/,
        ),
      });
      expect(files(join(mount, 'objects'))).toEqual([]);

      rmSync(filler);
      expect((await runBackup(ctx, admin.token, { connectionId })).status).toBe('completed');
      expect(files(join(mount, 'objects')).length).toBeGreaterThan(1);
    }, 150_000);
  });
});
