import { join } from 'node:path';
import { KeyRing } from '@libs/crypto/key-ring.js';
import { FsObjectStore } from '@libs/object-store/fs-object-store.js';
import { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import type { TestApp } from './test-app.js';

/** Opens a backup's snapshot as stored by the app: its filesystem store and master key. */
export function openSnapshot(ctx: TestApp, storageKey: string): Promise<SnapshotReader> {
  return SnapshotReader.open({
    store: new FsObjectStore(join(ctx.dataDir, 'objects')),
    prefix: storageKey,
    keyRing: KeyRing.parse(ctx.config.MASTER_KEY!),
  });
}

/** Creates a connection through the API and returns its id. */
export async function createConnection(
  ctx: TestApp,
  token: string,
  org: { baseUrl: string; clientId: string; clientSecret: string },
): Promise<string> {
  const response = await ctx.http
    .post('/api/connections/create')
    .set('Authorization', `Bearer ${token}`)
    .send({
      org_url: org.baseUrl,
      client_id: org.clientId,
      client_secret: org.clientSecret,
      org_name: 'Test org',
    });
  if (response.status !== 201)
    throw new Error(`create connection answered ${response.status}: ${response.text}`);
  return response.body.connection.id as string;
}

/** Polls GET /api/backup/status until the backup leaves `running`; returns the final status body. */
export async function waitForBackup(
  ctx: TestApp,
  token: string,
  backupId: string,
  timeoutMs = 120_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await ctx.http
      .get('/api/backup/status')
      .query({ backupId })
      .set('Authorization', `Bearer ${token}`);
    if (response.status !== 200) throw new Error(`status answered ${response.status}: ${response.text}`);
    if (response.body.status !== 'running') return response.body as Record<string, unknown>;
    if (Date.now() > deadline) throw new Error(`backup ${backupId} still running`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Starts a backup through the API, waits until it leaves `running`, and returns GET /api/backup/[id]'s view. */
export async function runBackup(
  ctx: TestApp,
  token: string,
  body: Record<string, unknown>,
): Promise<BackupDto> {
  const backupId = await startBackup(ctx, token, body);
  await waitForBackup(ctx, token, backupId);
  const response = await ctx.http.get(`/api/backup/${backupId}`).set('Authorization', `Bearer ${token}`);
  return response.body.backup as BackupDto;
}

/** Starts a backup through POST /api/backup/run. @returns its id @throws Error unless it answered 202 */
export async function startBackup(
  ctx: TestApp,
  token: string,
  body: Record<string, unknown>,
): Promise<string> {
  const run = await ctx.http.post('/api/backup/run').set('Authorization', `Bearer ${token}`).send(body);
  if (run.status !== 202) throw new Error(`backup run answered ${run.status}: ${run.text}`);
  return run.body.backupId as string;
}
