import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import { ProviderError } from '@libs/providers/provider-errors.js';
import { requireProvider } from '@libs/providers/registry.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { SnapshotWriter } from '@libs/snapshot/snapshot-writer.js';
import { byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import type { Actor } from '@app/common/actor.js';
import type { UploadBody } from '@app/common/request-edge/upload-body.js';
import { ConflictError, ValidationError } from '@app/common/errors.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { KEY_RING } from '@app/platform/security/key-ring.provider.js';
import { OBJECT_STORE } from '@app/platform/storage/storage.module.js';
import { backupEntry } from './backup-audit.js';
import { BackupsRepository } from './backups.repository.js';
import { type BackupDto, toBackupDto } from './dto/backup.dto.js';

/** Largest export file an upload takes: 10 MiB (Workflows caps a flow's memory at 100 MB; real folder exports are KBs to a few MB). */
export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * A backup from an export file an admin made by hand in the provider's console (docs/okta-workflows.md
 * "Manual upload": an Okta Workflows `.folder` or `.flow`), for providers whose descriptor reads such files
 * (`recordsOfUpload`). The file is validated, then stored as any snapshot (NDJSON parts, gzip,
 * encrypted under the backup's data key) and recorded as a completed full backup. Done in the
 * request: the file is at most UPLOAD_LIMIT_BYTES, read into memory once the checks pass, so there is no long work
 * to hand to a job.
 */
@Injectable()
export class BackupUploadService {
  constructor(
    private readonly backups: BackupsRepository,
    private readonly connections: ConnectionsService,
    private readonly audit: AuditService,
    private readonly plans: PlanLimitsService,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(KEY_RING) private readonly keyRing: KeyRing,
  ) {}

  /**
   * Checks the plan, the connection and its provider first, and only then reads `body`, so a
   * refused upload costs no memory.
   * @throws PlanLimitExceededError (402) `backups_per_day` or `trial_ended`
   * @throws what UploadBody throws (413 too large, 503 too many uploads at once, 400 empty)
   * @throws NotFoundError for a connection the team cannot see; ValidationError (400)
   *   `upload_not_supported` for a provider without export files, `invalid_flopack` (or the
   *   provider's code) for a file that is not an export; ConflictError `backup_in_progress`
   */
  async upload(actor: Actor, connectionId: string, body: UploadBody): Promise<BackupDto> {
    await this.plans.assertCanRunBackup(actor);
    const connection = await this.connections.getRef(actor.teamId, connectionId);
    const descriptor = requireProvider(connection.provider);
    if (!descriptor.recordsOfUpload)
      throw new ValidationError(`${descriptor.label} connections take no uploaded export`, {
        code: 'upload_not_supported',
      });
    const bytes = await body();
    let records: Record<string, ResourceRecord[]>;
    try {
      records = descriptor.recordsOfUpload(bytes);
    } catch (error) {
      if (error instanceof ProviderError) throw new ValidationError(error.message, { code: error.code });
      throw error;
    }
    const id = randomUUID();
    const facts = {
      id,
      teamId: actor.teamId,
      connectionId,
      org: connection.orgName ?? connection.orgUrl,
      triggeredBy: 'manual' as const,
    };
    const storageKey = `teams/${actor.teamId}/users/${actor.userId}/connections/${connectionId}/backups/${id}/`;
    const inserted = await this.audit.audited(
      (tx) =>
        this.backups.insertRunning(
          {
            id,
            teamId: actor.teamId,
            connectionId,
            ownerUserId: actor.userId,
            kind: 'full',
            baseBackupId: null,
            triggeredBy: 'manual',
            include: null,
            includeWorkflows: false,
            storageKey,
          },
          tx,
        ),
      (ok) =>
        ok ? backupEntry('backup.started', facts, { kind: 'full', source: 'upload' }, byCaller(actor)) : null,
    );
    if (!inserted)
      throw new ConflictError('backup_in_progress', 'A backup of this connection is already running');
    try {
      const writer = await SnapshotWriter.create({
        store: this.store,
        prefix: storageKey,
        keyRing: this.keyRing,
        volatileFields: descriptor.volatileFields,
      });
      const counts: Record<string, number> = {};
      for (const type of descriptor.resourceTypes)
        counts[type] = (await writer.writePart(type, records[type] ?? [])).count;
      const startedAt = new Date().toISOString();
      const manifest = await writer.finish({
        backupId: id,
        connectionId,
        teamId: actor.teamId,
        provider: connection.provider,
        orgUrl: connection.orgUrl,
        kind: 'full',
        baseBackupId: null,
        cursors: {},
        startedAt,
        source: 'upload',
        notCaptured: descriptor.notCaptured,
      });
      const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
      await this.audit.audited(
        (tx) =>
          this.backups.finish(
            id,
            {
              status: 'completed',
              message: `Uploaded export stored: ${total} objects (${describeCounts(counts)})`,
              fields: {
                resourceCounts: counts,
                resourceTypes: Object.keys(counts),
                size: String(manifest.totalStoredBytes),
                sha256: manifest.sha256,
                requests: 0,
              },
            },
            tx,
          ),
        () => backupEntry('backup.completed', facts, { kind: 'full', source: 'upload', resources: total }),
      );
    } catch (error) {
      await this.store.deletePrefix(storageKey);
      const message = 'The uploaded export could not be stored';
      await this.audit.audited(
        (tx) => this.backups.finish(id, { status: 'failed', errorMessage: message }, tx),
        () => backupEntry('backup.failed', facts, { error: message }),
      );
      throw error;
    }
    const row = await this.backups.findVisible(actor.teamId, id);
    return toBackupDto(row!);
  }
}

function describeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([type, n]) => `${n} ${type}`)
    .join(', ');
}
