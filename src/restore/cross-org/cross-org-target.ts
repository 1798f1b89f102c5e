import { Injectable } from '@nestjs/common';
import type { ProviderKind } from '@libs/providers/provider-kind.js';
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
   * @param source the backup's connection and its provider kind
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
    source: { connectionId: string; provider: ProviderKind },
    request: { targetConnectionId?: string; mapping?: CrossOrgMapping },
  ): Promise<ConnectionRef | null> {
    const { targetConnectionId } = request;
    if (targetConnectionId === undefined || targetConnectionId === source.connectionId) {
      if (request.mapping === undefined) return null;
      throw new ValidationError('A mapping carries a backup into another org: give targetConnectionId too', {
        code: 'mapping_without_target',
        field: 'mapping',
      });
    }
    const target = await this.connections.getRef(teamId, targetConnectionId);
    const kind = source.provider;
    if (target.provider !== kind)
      throw new ValidationError(
        `A ${requireProvider(kind).label} backup restores only into a ${requireProvider(kind).label} connection; this one is ${requireProvider(target.provider).label}`,
        { code: 'target_kind_mismatch', field: 'targetConnectionId' },
      );
    if (requireProvider(kind).restorePackage !== undefined)
      throw new ValidationError(
        `${requireProvider(kind).label} restores are re-import packages, written by hand into any org: restore without targetConnectionId`,
        { code: 'target_not_writable', field: 'targetConnectionId' },
      );
    return target;
  }
}
