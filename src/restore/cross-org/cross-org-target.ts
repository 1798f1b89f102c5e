import { Injectable } from '@nestjs/common';
import type { OpenedBackup } from '@app/backups/backup-snapshots.service.js';
import type { ConnectionRef } from '@app/connections/connection-ref.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { ValidationError } from '@app/common/errors.js';
import { requireProvider } from '@libs/providers/registry.js';
import type { CrossOrgMapping } from '@libs/restore/cross-org/mapping.js';

/**
 * The connection a restore into another org writes to (docs/restore.md "Into another org"):
 * another connection of the same team and of the backup's provider kind.
 */
@Injectable()
export class CrossOrgTargets {
  constructor(private readonly connections: ConnectionsService) {}

  /**
   * @param request the request's `targetConnectionId` and `mapping`, if any
   * @returns the target connection; null when the restore goes into the backup's own org
   *   (no target, or the backup's own connection)
   * @throws NotFoundError for a connection the team cannot see (another team's is a 404);
   *   ValidationError `target_kind_mismatch` for one of another provider kind, and
   *   `target_not_writable` for a provider restored by re-import package (nothing is written to it);
   *   `mapping_without_target` for a mapping of a restore into the backup's own org
   */
  async resolve(
    teamId: string,
    opened: OpenedBackup,
    request: { targetConnectionId?: string; mapping?: CrossOrgMapping },
  ): Promise<ConnectionRef | null> {
    const { targetConnectionId } = request;
    if (targetConnectionId === undefined || targetConnectionId === opened.backup.connectionId) {
      if (request.mapping === undefined) return null;
      throw new ValidationError('A mapping carries a backup into another org: give targetConnectionId too', {
        code: 'mapping_without_target',
        field: 'mapping',
      });
    }
    const target = await this.connections.getRef(teamId, targetConnectionId);
    const source = opened.backup.connection.provider;
    if (target.provider !== source)
      throw new ValidationError(
        `A ${requireProvider(source).label} backup restores only into a ${requireProvider(source).label} connection; this one is ${requireProvider(target.provider).label}`,
        { code: 'target_kind_mismatch', field: 'targetConnectionId' },
      );
    if (requireProvider(source).restorePackage !== undefined)
      throw new ValidationError(
        `${requireProvider(source).label} restores are re-import packages, written by hand into any org: restore without targetConnectionId`,
        { code: 'target_not_writable', field: 'targetConnectionId' },
      );
    return target;
  }
}
