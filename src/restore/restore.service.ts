import { HttpStatus, Injectable } from '@nestjs/common';
import { ProviderError } from '@libs/providers/provider-errors.js';
import { BackupSnapshotsService } from '../backups/backup-snapshots.service.js';
import { resolveIncludedTypes } from '../backups/included-types.js';
import type { Actor } from '../common/actor.js';
import { ApiError } from '../common/errors.js';
import { ConnectionsService } from '../connections/connections.service.js';
import type { RestorePreviewQuery } from './dto/restore-preview.query.js';
import { type PruneCandidate, type RestorePreviewRow, previewRestore } from './restore-preview.js';

/** What a restore cannot bring back as it was, per type (beyond the spec: the runbook after a restore). */
export interface NotRestorable {
  resourceType: string;
  /** fields or sub-resources the provider never returns (snapshot manifest `notCaptured`) */
  items: string[];
  why: string;
}

/** Response of GET /api/restore (spec "Restore"), with our additions. */
export interface RestorePreview {
  preview: RestorePreviewRow[];
  sourceOrgUrl: string;
  /** when the live org was read (ISO 8601) */
  collectedAt: string;
  prune: PruneCandidate[];
  notRestorable: NotRestorable[];
}

const NOT_CAPTURED_WHY =
  'The provider never returns these, so no backup holds them: set them again after the restore (for users: they come back without passwords or MFA enrolments and must be activated or reset).';

/** Restore of a backup into its connection's live org (spec "Restore", DESIGN section 6). */
@Injectable()
export class RestoreService {
  constructor(
    private readonly snapshots: BackupSnapshotsService,
    private readonly connections: ConnectionsService,
  ) {}

  /**
   * The dry run: what a restore of the backup would create, update and leave alone in the live
   * org, per type. Never writes.
   * @throws NotFoundError for a backup (or its connection) the team cannot see
   * @throws ConflictError `backup_not_completed`; ValidationError for an unknown resource type
   * @throws ApiError 502 `provider_error` when the live org cannot be read (refused credentials,
   *   host not allowed, the provider failing after retries)
   */
  async preview(actor: Actor, query: RestorePreviewQuery): Promise<RestorePreview> {
    const { backup, reader } = await this.snapshots.open(actor.teamId, query.backupId);
    const wanted =
      query.resourceTypes === undefined
        ? reader.types
        : resolveIncludedTypes(backup.connection.provider, query.resourceTypes, 'resourceTypes');
    const types = wanted.filter((type) => reader.has(type));
    const connector = await this.connections.openConnector(actor.teamId, backup.connectionId);
    try {
      const { rows, prune } = await previewRestore(reader, connector, types).catch((error: unknown) => {
        if (!(error instanceof ProviderError)) throw error;
        throw new ApiError(
          HttpStatus.BAD_GATEWAY,
          'provider_error',
          `Reading the live org failed: ${error.message}`,
        );
      });
      const notCaptured = (reader.manifest.meta.notCaptured ?? {}) as Record<string, string[]>;
      return {
        preview: rows,
        sourceOrgUrl: backup.connection.orgUrl,
        collectedAt: new Date().toISOString(),
        prune,
        notRestorable: types
          .filter((type) => (notCaptured[type] ?? []).length > 0)
          .map((type) => ({ resourceType: type, items: notCaptured[type], why: NOT_CAPTURED_WHY })),
      };
    } finally {
      await connector.close();
    }
  }
}
