import { HttpStatus, Injectable } from '@nestjs/common';
import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import { ProviderError } from '@libs/providers/provider-errors.js';
import { requireProvider } from '@libs/providers/registry.js';
import type { RestoreSelection } from '@libs/restore/scope.js';
import { type UndoChange, type UndoFilter, planUndo } from '@libs/restore/undo.js';
import { ChangeAttributionService } from '@app/attribution/change-attribution.service.js';
import { BackupSnapshotsService, type OpenedBackup } from '@app/backups/backup-snapshots.service.js';
import { resolveIncludedTypes } from '@app/backups/included-types.js';
import type { Actor } from '@app/common/actor.js';
import { ApiError, ValidationError } from '@app/common/errors.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import type { RestoreEntity } from '@app/restore/restore.entity.js';
import type { UndoPreviewQuery } from './undo-preview.query.js';
import type { UndoPreviewDto } from './undo-preview.dto.js';
import { checkWindow } from './undo-body.js';

/** At most this many changes are listed by an undo's dry run (all are counted). */
export const MAX_LISTED_UNDO_CHANGES = 1000;

/**
 * Undo since a clean backup (docs/restore.md "Undo since a clean backup"): which changes made
 * since a backup an undo reverses (libs/restore/undo.ts), for its dry run
 * (GET /api/restore/undo) and for the `restore-run` job of a restore of mode `undo`.
 */
@Injectable()
export class RestoreUndo {
  constructor(
    private readonly snapshots: BackupSnapshotsService,
    private readonly connections: ConnectionsService,
    private readonly attributions: ChangeAttributionService,
  ) {}

  /**
   * The dry run of an undo: every change since the backup, against the live org, that it would
   * reverse, with who made it. Never writes.
   * @throws NotFoundError for a backup the team cannot see; ConflictError `backup_not_completed`;
   *   ValidationError for an unknown type, `since` after `until`, or a provider restored by hand;
   *   ApiError 502 `provider_error` when the live org cannot be read
   */
  preview(actor: Actor, query: UndoPreviewQuery): Promise<UndoPreviewDto> {
    return this.previewInTeam(actor.teamId, query);
  }

  /** `preview` for a job (an undo's dry run queued), which acts in a team without a caller. @throws as `preview` */
  async previewInTeam(teamId: string, query: UndoPreviewQuery): Promise<UndoPreviewDto> {
    checkWindow(query);
    const opened = await this.snapshots.open(teamId, query.backupId);
    const filter = this.filterOf(opened, query);
    const { backup } = opened;
    const connector = await this.connections.openConnector(backup.teamId, backup.connectionId);
    try {
      const { changes, attributionUnavailable } = await this.plan(opened, connector, filter).catch(
        (error: unknown) => {
          if (!(error instanceof ProviderError)) throw error;
          throw new ApiError(
            HttpStatus.BAD_GATEWAY,
            'provider_error',
            `Reading the live org failed: ${error.message}`,
          );
        },
      );
      const descriptor = requireProvider(backup.connection.provider);
      return {
        backupId: backup.id,
        sourceOrgUrl: backup.connection.orgUrl,
        collectedAt: new Date().toISOString(),
        attribution:
          descriptor.attributesChanges && attributionUnavailable === undefined
            ? { available: true }
            : {
                available: false,
                reason:
                  attributionUnavailable ??
                  descriptor.changeAttributionUnavailable ??
                  'No audit log is read for this provider.',
              },
        totals: totalsOf(changes),
        total: changes.length,
        changes: changes.slice(0, MAX_LISTED_UNDO_CHANGES),
      };
    } finally {
      await connector.close();
    }
  }

  /**
   * The changes an undo of `opened` reverses and the restore selection that reverses them, read
   * through `connector` (the live org and its audit log); `attributionUnavailable` says why no
   * change could be attributed (the connection may not read the provider's log).
   */
  async plan(
    opened: OpenedBackup,
    connector: ProviderConnector,
    filter: UndoFilter,
    signal?: AbortSignal,
  ): Promise<{ changes: UndoChange[]; selection: RestoreSelection; attributionUnavailable?: string }> {
    const { backup, reader } = opened;
    const { entries, unavailable } = requireProvider(backup.connection.provider).attributesChanges
      ? await this.attributions.since(backup, connector, backup.startedAt, signal)
      : { entries: undefined, unavailable: undefined };
    const planned = await planUndo({
      snapshot: reader,
      connector,
      restorer: connector.restorer({ activateUsers: false }),
      entries,
      filter,
      signal,
    });
    return { ...planned, ...(unavailable === undefined ? {} : { attributionUnavailable: unavailable }) };
  }

  /**
   * After an undo ran: the selection that deletes what came back with the objects it re-created
   * and that its plan (`done`) could not see, or null when nothing did. Entra restores a user or
   * group from the deleted items with the links it had when deleted ("Restore deleted item"), so
   * a membership added since the backup to a user deleted since returns with the user. The changes
   * are found again as `plan` finds them (same filter); only deletions of objects the first plan
   * did not mean to delete are kept, so a deletion a guard refused is not tried twice.
   * @throws ProviderError when the live org cannot be read
   */
  async cameBack(
    opened: OpenedBackup,
    connector: ProviderConnector,
    filter: UndoFilter,
    done: { changes: readonly UndoChange[]; selection: RestoreSelection },
    signal?: AbortSignal,
  ): Promise<RestoreSelection | null> {
    if (!done.changes.some((change) => change.action === 'recreate')) return null;
    const tried = done.selection.pruneIds ?? new Set<string>();
    const { changes } = await this.plan(opened, connector, filter, signal);
    const more = changes.filter((change) => change.action === 'delete' && !tried.has(change.id));
    if (more.length === 0) return null;
    return {
      types: new Set(more.map((change) => change.resourceType)),
      ids: new Set(),
      pruneIds: new Set(more.map((change) => change.id)),
    };
  }

  /** The filter of a restore of mode `undo`, as it was asked for. */
  filterOfRestore(restore: RestoreEntity): UndoFilter {
    return {
      ...restore.undo,
      ...(restore.resourceTypes ? { types: new Set(restore.resourceTypes) } : {}),
      ...(restore.resourceIds ? { ids: new Set(restore.resourceIds) } : {}),
      // A revert of some fields: their objects only.
      ...(restore.undo?.fields?.length
        ? {
            ids: new Set([
              ...(restore.resourceIds ?? []),
              ...restore.undo.fields.map((field) => field.resourceId),
            ]),
          }
        : {}),
    };
  }

  /** @throws ValidationError for an unknown type or a provider restored by hand */
  filterOf(opened: OpenedBackup, query: UndoPreviewQuery): UndoFilter {
    const provider = opened.backup.connection.provider;
    if (requireProvider(provider).restorePackage !== undefined)
      throw new ValidationError(
        'This provider is restored by a re-import package: there is nothing to undo through its API',
        [{ field: 'backupId', message: 'an undo needs a provider restored through its API' }],
      );
    return {
      ...(query.actor !== undefined ? { actor: query.actor } : {}),
      ...(query.since !== undefined ? { since: query.since } : {}),
      ...(query.until !== undefined ? { until: query.until } : {}),
      ...(query.resourceTypes
        ? { types: new Set(resolveIncludedTypes(provider, query.resourceTypes, 'resourceTypes')) }
        : {}),
      ...(query.resourceIds ? { ids: new Set(query.resourceIds) } : {}),
    };
  }
}

function totalsOf(changes: readonly UndoChange[]): UndoPreviewDto['totals'] {
  const totals = { delete: 0, put_back: 0, recreate: 0 };
  for (const change of changes) totals[change.action] += 1;
  return totals;
}
