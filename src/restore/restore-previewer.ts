import { HttpStatus, Injectable } from '@nestjs/common';
import { ProviderError } from '@libs/providers/provider-errors.js';
import { requireProvider } from '@libs/providers/registry.js';
import { type PruneCandidate, type RestorePreviewRow, previewRestore } from '@libs/restore/preview.js';
import type { RestoreSelection } from '@libs/restore/scope.js';
import type { RestoreWriteOptions } from '@libs/providers/provider-restore.js';
import type { OpenedBackup } from '@app/backups/backup-snapshots.service.js';
import { ApiError } from '@app/common/errors.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { RestorePackages } from './restore-packages.js';
import type { NotRestorable, RestorePreview } from './restore-results.js';

const NOT_CAPTURED_WHY =
  'The provider never returns these, so no backup holds them: set them again after the restore (for users: they come back without passwords or MFA enrolments and must be activated or reset).';

/**
 * Computes a restore preview (the dry run, libs/restore/preview.ts) of an opened backup against
 * its connection's live org: in the request for small backups, in the `restore-preview` job for
 * large ones (docs/decisions.md). Never writes.
 */
@Injectable()
export class RestorePreviewer {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly packages: RestorePackages,
  ) {}

  /**
   * @param opened the backup, already checked to be the team's and completed
   * @throws ApiError 502 `provider_error` when the live org cannot be read (refused credentials,
   *   host not allowed, the provider failing after retries); SnapshotIntegrityError when altered
   */
  async preview(
    opened: OpenedBackup,
    selection: RestoreSelection,
    options: RestoreWriteOptions,
  ): Promise<RestorePreview> {
    if (this.packages.appliesTo(opened)) return this.packagePreview(opened, selection);
    const { backup, reader } = opened;
    const connector = await this.connections.openConnector(backup.teamId, backup.connectionId);
    try {
      const { rows, prune } = await previewRestore({
        snapshot: reader,
        connector,
        restorer: connector.restorer(options),
        selection,
        severityRules: requireProvider(backup.connection.provider).severityRules,
      }).catch(liveOrgReadFailed);
      return previewAnswer(opened, rows, prune);
    } finally {
      await connector.close();
    }
  }

  /**
   * The preview of a provider restored by a re-import package (RestorePackages): what the package
   * would hold, type by type, as `create` (each is re-imported by hand), read from the backup
   * alone: there is no live org to compare with through an API.
   */
  private async packagePreview(opened: OpenedBackup, selection: RestoreSelection): Promise<RestorePreview> {
    const pkg = await this.packages.build(opened, selection);
    const rows = Object.entries(pkg.counts)
      .filter(([type, count]) => count > 0 || selection.types.has(type))
      .map(([resourceType, create]) => ({
        resourceType,
        create,
        update: 0,
        skip: 0,
        pruneCandidates: 0,
        restoreFromDeleted: 0,
        notes: pkg.notes,
      }));
    return {
      preview: rows,
      sourceOrgUrl: opened.backup.connection.orgUrl,
      collectedAt: new Date().toISOString(),
      prune: [],
      notRestorable: notRestorable(opened.reader.manifest.meta.notCaptured, rows),
    };
  }
}

/**
 * Rethrows a provider's failure to be read as the preview's 502 `provider_error`.
 * @throws ApiError 502 for a ProviderError; any other error as it is
 */
export function liveOrgReadFailed(error: unknown): never {
  if (!(error instanceof ProviderError)) throw error;
  throw new ApiError(
    HttpStatus.BAD_GATEWAY,
    'provider_error',
    `Reading the live org failed: ${error.message}`,
  );
}

/** A preview's answer from its rows and prune candidates: the backup's org, now, and its runbook. */
export function previewAnswer(
  opened: OpenedBackup,
  rows: RestorePreviewRow[],
  prune: PruneCandidate[],
): RestorePreview {
  return {
    preview: rows,
    sourceOrgUrl: opened.backup.connection.orgUrl,
    collectedAt: new Date().toISOString(),
    prune,
    notRestorable: notRestorable(opened.reader.manifest.meta.notCaptured, rows),
  };
}

/** The manifest's `notCaptured` of the previewed types, for the runbook. */
function notRestorable(notCaptured: unknown, rows: readonly RestorePreviewRow[]): NotRestorable[] {
  const byType = (notCaptured ?? {}) as Record<string, string[]>;
  return rows
    .map((row) => row.resourceType)
    .filter((type) => (byType[type] ?? []).length > 0)
    .map((type) => ({ resourceType: type, items: byType[type], why: NOT_CAPTURED_WHY }));
}
