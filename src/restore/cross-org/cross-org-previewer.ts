import { Injectable } from '@nestjs/common';
import { requireProvider } from '@libs/providers/registry.js';
import type { RestoreWriteOptions } from '@libs/providers/provider-restore.js';
import type { RestoreSelection } from '@libs/restore/scope.js';
import { previewCrossOrg } from '@libs/restore/cross-org/cross-org-preview.js';
import type { CrossOrgMapping } from '@libs/restore/cross-org/mapping.js';
import type { OpenedBackup } from '@app/backups/backup-snapshots.service.js';
import type { ConnectionRef } from '@app/connections/connection-ref.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { liveOrgReadFailed, previewAnswer } from '@app/restore/restore-previewer.js';
import type { RestorePreview } from '@app/restore/restore-results.js';
import { crossOrgRestorer } from './cross-org-restorer.factory.js';

/**
 * The dry run of a restore into another org (docs/restore.md "Into another org"): the backup
 * compared with the target connection's live org, every object matched by natural key (or an
 * explicit pair) after the mapping, never by id; answered in the request. Never writes.
 */
@Injectable()
export class CrossOrgPreviewer {
  constructor(private readonly connections: ConnectionsService) {}

  /**
   * @param opened the backup, already checked to be the team's and completed
   * @param target the connection written to (CrossOrgTargets.resolve)
   * @throws ApiError 502 `provider_error` when the target org cannot be read; SnapshotIntegrityError
   */
  async preview(
    opened: OpenedBackup,
    target: ConnectionRef,
    selection: RestoreSelection,
    options: RestoreWriteOptions,
    mapping: CrossOrgMapping,
  ): Promise<RestorePreview> {
    const { reader } = opened;
    const connector = await this.connections.openConnector(target.teamId, target.id);
    try {
      const { rows, prune, ...objects } = await previewCrossOrg({
        snapshot: reader,
        connector,
        restorer: crossOrgRestorer(connector, target.provider, options, mapping),
        selection,
        severityRules: requireProvider(target.provider).severityRules,
      }).catch(liveOrgReadFailed);
      return {
        ...previewAnswer(opened, rows, prune),
        crossOrg: { targetConnectionId: target.id, targetOrgUrl: target.orgUrl, mapping, ...objects },
      };
    } finally {
      await connector.close();
    }
  }
}
