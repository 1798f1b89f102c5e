import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  GetObjectCommand,
  ListObjectVersionsCommand,
  PutObjectCommand,
  DeleteObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { AccountDeletionService } from '@app/identity/account/account-deletion.service.js';
import { BackupsService } from '@app/backups/backups.service.js';
import { ReportsService } from '@app/export/reports.service.js';
import { createObjectStore } from '@libs/object-store/create-object-store.js';
import { createConnection, runBackup } from '@test/support/backup-helpers.js';
import { startTestOrg, type TestOrg } from '@test/support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from '@test/support/test-app.js';
import { startVersionedS3, type VersionedS3 } from '@test/support/versioned-s3.js';
import { CHROMIUM, itWithTools } from '@test/support/tools.js';

const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * Deleting in a bucket with versioning enabled (docker-compose.yml turns it on, docs/operations.md
 * recommends it): a plain delete there only stacks a delete marker, and every earlier version of
 * a snapshot, manifest (wrapped data keys) or PDF stays readable with the master key. Whatever
 * the service deletes (a prefix through the driver, a team's account, backups past retention,
 * expired reports) leaves no version and no delete marker behind. The server lists 3 entries a
 * page, so every listing pages.
 */
describe('deleting from a versioned S3 bucket', () => {
  let s3: VersionedS3;
  let client: S3Client;

  /** Every version and delete marker under `prefix`, as `key@versionId`, through ListObjectVersions. */
  const versionsUnder = async (prefix: string): Promise<string[]> => {
    const found: string[] = [];
    let KeyMarker: string | undefined;
    let VersionIdMarker: string | undefined;
    for (;;) {
      const page = await client.send(
        new ListObjectVersionsCommand({ Bucket: s3.bucket, Prefix: prefix, KeyMarker, VersionIdMarker }),
      );
      for (const v of [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])])
        found.push(`${v.Key}@${v.VersionId}`);
      if (!page.IsTruncated) return found.sort();
      KeyMarker = page.NextKeyMarker;
      VersionIdMarker = page.NextVersionIdMarker;
    }
  };

  beforeAll(async () => {
    s3 = await startVersionedS3('idp-backup-versioned', 3);
    client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
  });

  afterAll(async () => {
    client?.destroy();
    await s3?.close();
  });

  it('the S3 driver deletes every version and delete marker under a prefix, and nothing beside it', async () => {
    const store = await createObjectStore({
      driver: 's3',
      bucket: s3.bucket,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      prefix: 'driver',
    });
    await store.put('gone/a', Buffer.from('first'));
    await store.put('gone/a', Buffer.from('second'));
    await store.put('gone/b', Buffer.from('b'));
    await store.put('kept/c', Buffer.from('c'));
    // A key whose current version is already a delete marker still holds its data.
    const { VersionId } = await client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: 'driver/gone/d', Body: 'wrapped data key' }),
    );
    await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: 'driver/gone/d' }));
    const old = await client.send(
      new GetObjectCommand({ Bucket: s3.bucket, Key: 'driver/gone/d', VersionId }),
    );
    expect(await old.Body!.transformToString()).toBe('wrapped data key');
    expect(await versionsUnder('driver/gone/')).toHaveLength(5);

    expect(await store.deletePrefix('gone/')).toBe(5);

    expect(await versionsUnder('driver/gone/')).toEqual([]);
    expect(await versionsUnder('driver/kept/')).toHaveLength(1);
    expect((await store.head('kept/c'))?.size).toBe(1);
  });

  describe('the service on a versioned bucket', () => {
    let org: TestOrg;
    let ctx: TestApp;
    let owner: TestClient;
    let connectionId: string;
    const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

    beforeAll(async () => {
      org = await startTestOrg({ users: 12, groups: 3, apps: 2, seed: 45 });
      ctx = await startTestApp({
        ...org.env,
        CHROMIUM_PATH: CHROMIUM,
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      });
      owner = await ctx.newClient({ role: 'super_admin' });
      connectionId = await createConnection(ctx, owner.token, {
        baseUrl: org.sim.baseUrl,
        ...org.integration,
      });
    }, 120_000);

    afterAll(async () => {
      await ctx?.close();
      await org?.sim.close();
    });

    const backupNow = async () => {
      const backup = await runBackup(ctx, owner.token, { connectionId });
      const { storage_key } = (await ctx.http.get(`/api/backup/${backup.id}`).set(bearer(owner.token))).body
        .backup as { storage_key: string };
      return { id: backup.id, storageKey: storage_key };
    };

    itWithTools('chromium')(
      'leaves no version of an expired report (PDF rendered by Chromium)',
      async () => {
        const { id: backupId } = await backupNow();
        const made = await ctx.http
          .post('/api/export/report')
          .set(bearer(owner.token))
          .send({ type: 'backup', backupId });
        expect(made.status).toBe(200);
        const reports = `teams/${owner.teamId}/reports/`;
        expect(await versionsUnder(reports)).toHaveLength(1);

        expect(await ctx.app.get(ReportsService).removeExpired(new Date(Date.now() + YEAR_MS))).toBe(1);

        expect(await versionsUnder(reports)).toEqual([]);
      },
      120_000,
    );

    it('leaves no version of a backup removed by retention', async () => {
      const { storageKey } = await backupNow();
      expect((await versionsUnder(storageKey)).length).toBeGreaterThan(0);
      await backupNow(); // retention keeps the newest completed backup (docs/backups.md "Retention")

      expect(
        await ctx.app.get(BackupsService).deleteExpired(new Date(Date.now() + 10 * YEAR_MS)),
      ).toBeGreaterThan(0);

      expect(await versionsUnder(storageKey)).toEqual([]);
    }, 120_000);

    it("leaves no version of any object under a deleted team's prefix", async () => {
      await backupNow();
      await backupNow();
      const team = `teams/${owner.teamId}/`;
      const other = await ctx.newClient({ role: 'super_admin' });
      const otherConnection = await createConnection(ctx, other.token, {
        baseUrl: org.sim.baseUrl,
        ...org.integration,
      });
      await runBackup(ctx, other.token, { connectionId: otherConnection });
      const otherVersions = await versionsUnder(`teams/${other.teamId}/`);
      expect(otherVersions.length).toBeGreaterThan(0);
      expect((await versionsUnder(team)).length).toBeGreaterThan(0);
      const scheduled = await ctx.http
        .post('/api/account/delete')
        .set(bearer(owner.token))
        .send({ confirm: 'DELETE' })
        .expect(202);
      const after = new Date(Date.parse(scheduled.body.scheduled_for as string) + 24 * 3600 * 1000);

      expect(await ctx.app.get(AccountDeletionService).deleteDue(after)).toEqual([owner.teamId]);

      expect(await versionsUnder(team)).toEqual([]);
      expect(await versionsUnder(`teams/${other.teamId}/`)).toEqual(otherVersions);
    }, 180_000);
  });
});
