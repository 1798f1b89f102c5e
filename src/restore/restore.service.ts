import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { SignedReportQuery } from '@app/common/downloads/report-url.js';
import { randomUUID } from 'node:crypto';
import { requireProvider } from '@libs/providers/registry.js';
import { BackupSnapshotsService, type OpenedBackup } from '@app/backups/backup-snapshots.service.js';
import { resolveIncludedTypes } from '@app/backups/included-types.js';
import type { Actor } from '@app/common/actor.js';
import { ConflictError, NotFoundError, ValidationError } from '@app/common/errors.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { keysetRows, type PeriodFilter } from '@app/common/keyset-rows.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { TrackedRunRunner } from '@app/platform/jobs/tracked-run/tracked-run.runner.js';
import { type RestoreDto, type RestoreItemDto, toRestoreDto, toRestoreItemDto } from './dto/restore.dto.js';
import type { RestoreHistoryQuery, RestoreItemsQuery } from './dto/restore-queries.js';
import type { RunRestoreDto } from './dto/run-restore.dto.js';
import type { RestoreSelection } from '@libs/restore/scope.js';
import { RestorePreviewer } from './restore-previewer.js';
import type { RestorePreview, RestorePreviewQueued, RestoreStarted } from './restore-results.js';
import { RestorePreviewsRepository } from './restore-previews.repository.js';
import { type RestorePreviewRunDto, toRestorePreviewRunDto } from './dto/restore-preview-run.dto.js';
import type { RestoreItemEntity } from './restore-item.entity.js';
import type { RestoreEntity } from './restore.entity.js';
import { RestoresRepository } from './restores.repository.js';
import { byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { restoreEntry, restorePreviewEntry } from './restore-audit.js';
import { RestorePackages } from './restore-packages.js';
import { restoreOptionValues } from './restore-options.js';
import { ApprovalGate, type HeldForApproval, type HoldOptions } from '@app/approvals/approval-gate.js';
import { checkUndoBody, checkUndoFields, undoFilterOf } from './undo/undo-body.js';
import { RestoreUndo } from './undo/restore-undo.js';
import type { UndoPreviewDto } from './undo/undo-preview.dto.js';
import type { UndoPreviewQuery } from './undo/undo-preview.query.js';
import { checkWindow } from './undo/undo-body.js';
import type { RestorePreviewEntity } from './restore-preview.entity.js';
import type { CrossOrgMapping } from '@libs/restore/cross-org/mapping.js';
import { CrossOrgTargets } from './cross-org/cross-org-target.js';
import { CrossOrgPreviewer } from './cross-org/cross-org-previewer.js';

/** What a preview or a restore covers. */
interface RestoreRequest {
  backupId: string;
  resourceTypes?: string[];
  resourceIds?: string[];
  activateUsers?: boolean;
  /** another connection of the team to restore into (docs/restore.md "Into another org") */
  targetConnectionId?: string;
  mapping?: CrossOrgMapping;
}

/** How the caller wants a preview answered (RFC 7240 `Prefer`). */
export interface PreviewPreference {
  /** `Prefer: respond-async`: the caller can poll, so a large backup's preview may run as a job */
  respondAsync: boolean;
}

/** A restore of a period with its items, read when asked for (the audit pack, docs/export.md). */
export interface RestoreWithItems {
  restore: RestoreDto;
  /** its items in the order applied, a page at a time */
  items(): AsyncGenerator<RestoreItemDto>;
}

/** Rows read per query when a period's restores or a restore's items are streamed out. */
const PERIOD_PAGE = 500;

/**
 * Restores of a team's backups into their connection's live org (spec "Restore", DESIGN
 * sections 4 and 6, docs/restore.md). Starting one only records and enqueues it; the
 * `restore-run` job does the work.
 */
@Injectable()
export class RestoreService {
  constructor(
    private readonly snapshots: BackupSnapshotsService,
    private readonly connections: ConnectionsService,
    private readonly restores: RestoresRepository,
    private readonly previews: RestorePreviewsRepository,
    private readonly previewer: RestorePreviewer,
    private readonly runner: TrackedRunRunner,
    private readonly audit: AuditService,
    private readonly packages: RestorePackages,
    private readonly gate: ApprovalGate,
    private readonly undo: RestoreUndo,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly targets: CrossOrgTargets,
    private readonly crossOrgPreviewer: CrossOrgPreviewer,
  ) {}

  /**
   * The dry run: what a restore of the backup would create, change, leave alone and could prune
   * in the live org, per type. Never writes. Answered at once, unless the caller prefers an
   * asynchronous answer and the backup holds more than RESTORE_PREVIEW_SYNC_MAX_RECORDS records:
   * then it is queued as a `restore-preview` job to poll (docs/decisions.md).
   * @throws NotFoundError for a backup (or its connection) the team cannot see
   * @throws ConflictError `backup_not_completed`; ValidationError for an unknown resource type
   * @throws ApiError 502 `provider_error` when the live org cannot be read (refused credentials,
   *   host not allowed, the provider failing after retries)
   */
  async preview(
    actor: Actor,
    request: RestoreRequest,
    preference: PreviewPreference = { respondAsync: false },
  ): Promise<RestorePreview | RestorePreviewQueued> {
    const opened = await this.snapshots.open(actor.teamId, request.backupId);
    const selection = this.selection(opened, request.resourceTypes, request.resourceIds);
    const options = {
      activateUsers: request.activateUsers ?? false,
      restoreOptions: restoreOptionValues(request),
    };
    // Into another org: compared with the target's live org, answered in the request.
    const target = await this.targets.resolve(actor.teamId, sourceOf(opened), request);
    if (target)
      return this.crossOrgPreviewer.preview(opened, target, selection, options, request.mapping ?? {});
    if (!this.queues(opened, preference)) return this.previewer.preview(opened, selection, options);
    return this.queuePreview(actor, opened, {
      resourceTypes: [...selection.types],
      resourceIds: request.resourceIds ?? null,
      activateUsers: options.activateUsers,
      options: options.restoreOptions,
    });
  }

  /**
   * An undo's dry run (GET /api/restore/undo, RestoreUndo.preview), queued as a `restore-preview`
   * job as `preview` queues a restore's: when the caller prefers an asynchronous answer and the
   * backup holds more than RESTORE_PREVIEW_SYNC_MAX_RECORDS records; else answered at once.
   * @throws as RestoreUndo.preview (its checks are made before it is queued)
   */
  async undoPreview(
    actor: Actor,
    query: UndoPreviewQuery,
    preference: PreviewPreference = { respondAsync: false },
  ): Promise<UndoPreviewDto | RestorePreviewQueued> {
    checkWindow(query);
    const opened = await this.snapshots.open(actor.teamId, query.backupId);
    const filter = this.undo.filterOf(opened, query);
    if (!this.queues(opened, preference)) return this.undo.preview(actor, query);
    return this.queuePreview(actor, opened, {
      resourceTypes: [...(filter.types ?? [])],
      resourceIds: query.resourceIds ?? null,
      activateUsers: false,
      options: {},
      undo: { ...query },
    });
  }

  /** Whether a dry run of `opened` is queued: asked for asynchronously, and a large backup. */
  private queues(opened: OpenedBackup, preference: PreviewPreference): boolean {
    const records = Object.values(opened.reader.manifest.counts).reduce((sum, count) => sum + count, 0);
    return preference.respondAsync && records > this.config.RESTORE_PREVIEW_SYNC_MAX_RECORDS;
  }

  /** Records a dry run of `opened` as a pending preview run and enqueues its job. */
  private async queuePreview(
    actor: Actor,
    opened: OpenedBackup,
    fields: Pick<RestorePreviewEntity, 'resourceTypes' | 'resourceIds' | 'activateUsers' | 'options'> &
      Partial<Pick<RestorePreviewEntity, 'undo'>>,
  ): Promise<RestorePreviewQueued> {
    const id = randomUUID();
    const facts = {
      teamId: actor.teamId,
      connectionId: opened.backup.connectionId,
      backupId: opened.backup.id,
    };
    await this.previews.insertPending({ ...facts, id, requestedBy: actor.userId, ...fields });
    await this.runner.enqueue({
      runs: this.previews,
      noun: 'restore preview',
      id,
      queue: 'restore-preview',
      data: { previewId: id },
      failedEntry: (error) => restorePreviewEntry('restore.preview_failed', { ...facts, id }, { error }),
    });
    return { previewId: id, status: 'pending' };
  }

  /** A preview queued as a job, with its result once completed. @throws NotFoundError for another team's or a missing one */
  async previewRun(actor: Actor, previewId: string): Promise<RestorePreviewRunDto> {
    const run = await this.previews.findVisible(actor.teamId, previewId);
    if (!run) throw new NotFoundError('Restore preview');
    return toRestorePreviewRunDto(run);
  }

  /**
   * POST /api/restore: without `mode`, the preview of what the body asks (it writes nothing);
   * with `mode`, records the restore and enqueues it, unless the team's two-person approval holds
   * it (or `hold.force`): then the pending request, with the dry run the requester saw
   * (docs/approvals.md).
   * @throws ValidationError when `mode` and the other fields disagree (docs/restore.md), or for an
   *   unknown resource type; NotFoundError for a backup or connection the team cannot see;
   *   ConflictError `backup_not_completed`, `restore_in_progress` (one per connection at a time)
   */
  async run(
    actor: Actor,
    body: RunRestoreDto,
    preference?: PreviewPreference,
    hold?: HoldOptions,
  ): Promise<RestorePreview | RestorePreviewQueued | RestoreStarted | HeldForApproval> {
    checkRunBody(body);
    if (body.mode === undefined) return this.preview(actor, body, preference);
    const held = await this.gate.hold(actor, 'restore', () => this.heldRequest(actor, body), hold);
    if (held) return held;
    const opened = await this.snapshots.open(actor.teamId, body.backupId);
    if (body.mode === 'undo' && this.packages.appliesTo(opened))
      throw new ValidationError('This provider is restored by a re-import package: an undo needs its API', [
        { field: 'mode', message: 'undo needs a provider restored through its API' },
      ]);
    if (body.fields?.length) {
      const descriptor = requireProvider(opened.backup.connection.provider);
      checkUndoFields(body.fields, descriptor.serverOwnedFields ?? ['id', ...descriptor.volatileFields]);
    }
    const selection = this.selection(opened, body.resourceTypes, body.resourceIds);
    const target = await this.targets.resolve(actor.teamId, sourceOf(opened), body);
    const connection = target ?? (await this.connections.getRef(actor.teamId, opened.backup.connectionId));
    const crossOrg = target && {
      sourceConnectionId: opened.backup.connectionId,
      mapping: body.mapping ?? {},
    };
    const id = randomUUID();
    const facts = { id, teamId: actor.teamId, connectionId: connection.id, backupId: opened.backup.id };
    const mode = body.mode;
    const inserted = await this.audit.audited(
      (tx) =>
        this.restores.insertPending(
          {
            ...facts,
            requestedBy: actor.userId,
            mode,
            resourceTypes: mode === 'full' ? null : [...selection.types],
            resourceIds: body.resourceIds ?? null,
            prune: mode === 'undo' || (body.prune ?? false),
            activateUsers: body.activateUsers ?? false,
            options: restoreOptionValues(body),
            ...(mode === 'undo' ? { undo: undoFilterOf(body) } : {}),
            ...crossOrg,
          },
          tx,
        ),
      (ok) =>
        ok
          ? restoreEntry(
              'restore.started',
              facts,
              {
                mode,
                prune: body.prune ?? false,
                ...(mode === 'undo' ? { undo: undoFilterOf(body) } : {}),
                ...(crossOrg && {
                  source_connection_id: crossOrg.sourceConnectionId,
                  into_another_org: true,
                }),
              },
              byCaller(actor),
            )
          : null,
    );
    if (!inserted)
      throw new ConflictError(
        'restore_in_progress',
        'A restore of this connection is already pending or running',
      );
    await this.runner.enqueue({
      runs: this.restores,
      noun: 'restore',
      id,
      queue: 'restore-run',
      data: { restoreId: id },
      failedEntry: (error) => restoreEntry('restore.failed', facts, { error }),
    });
    return { restoreId: id, status: 'started' };
  }

  /** What a restore held for approval shows: its backup, its org, and the dry run of its body now. */
  private async heldRequest(actor: Actor, body: RunRestoreDto) {
    const preview = await this.dryRunOf(actor, body);
    const kind =
      body.mode === 'undo'
        ? 'Undo of the changes since'
        : `${body.mode === 'full' ? 'Full' : 'Selective'} restore${body.prune ? ' with prune' : ''} of`;
    // Into another org, the org written to is the target's (docs/restore.md "Into another org").
    const crossOrg = 'crossOrg' in preview ? preview.crossOrg : undefined;
    const into = crossOrg
      ? `another org, ${crossOrg.targetOrgUrl} (backed up from ${preview.sourceOrgUrl})`
      : preview.sourceOrgUrl;
    return {
      target: { type: 'backup', id: body.backupId },
      summary: `${kind} backup ${body.backupId} into ${into}`,
      body: { ...body },
      preview: { ...preview },
    };
  }

  /**
   * The dry run a restore request is approved on (docs/approvals.md): an undo's
   * (GET /api/restore/undo, RestoreUndo) for mode `undo`, else the restore's (GET /api/restore),
   * answered at once, never queued.
   * @throws as `preview` and RestoreUndo.preview
   */
  async dryRunOf(actor: Actor, body: RunRestoreDto): Promise<RestorePreview | UndoPreviewDto> {
    const { mode, ...dryRun } = body;
    if (mode !== 'undo') return (await this.preview(actor, dryRun)) as RestorePreview;
    return this.undo.preview(actor, {
      backupId: body.backupId,
      ...undoFilterOf(body),
      ...(body.resourceTypes ? { resourceTypes: body.resourceTypes } : {}),
      ...(body.resourceIds ? { resourceIds: body.resourceIds } : {}),
    });
  }

  /**
   * The re-import package a signed URL names (RestorePackages).
   * @throws ForbiddenError for an expired, altered or other package's signature; NotFoundError when gone
   */
  downloadPackage(
    restoreId: string,
    query: SignedReportQuery,
  ): Promise<{ body: Readable; filename: string }> {
    return this.packages.download(restoreId, query);
  }

  /** One restore with a page of its items, and its package's link when it has one. @throws NotFoundError for another team's or a missing one */
  async get(
    actor: Actor,
    restoreId: string,
    query: RestoreItemsQuery,
  ): Promise<{ restore: RestoreDto; items: RestoreItemDto[]; items_total: number }> {
    const restore = await this.restores.findVisible(actor.teamId, restoreId);
    if (!restore) throw new NotFoundError('Restore');
    const { rows, total } = await this.restores.itemsPage(restore.id, {
      failedOnly: query.failedOnly ?? false,
      limit: query.limit,
      offset: query.offset,
    });
    const link = restore.packageKey ? this.packages.link(actor.teamId, restore.id) : undefined;
    return { restore: toRestoreDto(restore, link), items: rows.map(toRestoreItemDto), items_total: total };
  }

  /**
   * The team's restores of the period's connections created in it, oldest first, each with its
   * items; read a page at a time, so memory holds one page whatever the period.
   */
  async *listPeriod(teamId: string, filter: PeriodFilter): AsyncGenerator<RestoreWithItems> {
    const rows = keysetRows<RestoreEntity>(
      (after) => this.restores.listPeriodPage(teamId, filter, after, PERIOD_PAGE),
      PERIOD_PAGE,
    );
    for await (const row of rows) {
      const restores = this.restores;
      yield {
        restore: toRestoreDto(row),
        async *items() {
          const items = keysetRows<RestoreItemEntity>(
            (after) => restores.itemsAfter(row.id, after?.seq ?? 0, PERIOD_PAGE),
            PERIOD_PAGE,
          );
          for await (const item of items) yield toRestoreItemDto(item);
        },
      };
    }
  }

  /** The team's restores, newest first. */
  async history(
    actor: Actor,
    query: RestoreHistoryQuery,
  ): Promise<{ restores: RestoreDto[]; total: number }> {
    const { rows, total } = await this.restores.listPage(actor.teamId, query);
    return { restores: rows.map((row) => toRestoreDto(row)), total };
  }

  /**
   * The selection of a preview or restore: the types asked for (categories resolved) that the
   * backup holds, default all of them, and the record ids when narrowed.
   * @throws ValidationError for an unknown type, or when the backup holds none of those asked for
   */
  private selection(
    opened: OpenedBackup,
    resourceTypes?: string[],
    resourceIds?: string[],
  ): RestoreSelection {
    const { backup, reader } = opened;
    const wanted =
      resourceTypes === undefined
        ? reader.types
        : resolveIncludedTypes(backup.connection.provider, resourceTypes, 'resourceTypes');
    const types = wanted.filter((type) => reader.has(type));
    if (types.length === 0)
      throw new ValidationError('The backup holds none of the resource types asked for', [
        { field: 'resourceTypes', message: `the backup holds: ${reader.types.join(', ')}` },
      ]);
    return { types: new Set(types), ...(resourceIds ? { ids: new Set(resourceIds) } : {}) };
  }
}

/** The connection a backup was taken of, and its provider kind (CrossOrgTargets.resolve). */
function sourceOf(opened: OpenedBackup): { connectionId: string; provider: string } {
  return { connectionId: opened.backup.connectionId, provider: opened.backup.connection.provider };
}

/**
 * The rules between the fields of POST /api/restore (docs/restore.md): `selective` needs
 * `resourceTypes`; `full` takes every type, so neither list; `resourceIds` narrows types, so it
 * needs them; a prune of named ids means nothing (it removes what the backup lacks).
 * @throws ValidationError naming the field
 */
function checkRunBody(body: RunRestoreDto): void {
  const invalid = (field: string, message: string) => new ValidationError(message, [{ field, message }]);
  if (body.mode === 'selective' && !body.resourceTypes?.length)
    throw invalid('resourceTypes', 'resourceTypes is required when mode is selective');
  if (body.mode === 'full' && (body.resourceTypes !== undefined || body.resourceIds !== undefined))
    throw invalid(
      body.resourceTypes !== undefined ? 'resourceTypes' : 'resourceIds',
      'A full restore covers every type of the backup; use mode selective to narrow it',
    );
  checkUndoBody(body);
  if (body.mode !== 'undo' && body.resourceIds !== undefined && !body.resourceTypes?.length)
    throw invalid('resourceIds', 'resourceIds narrows resourceTypes: give the types of those ids');
  if (body.prune && body.resourceIds !== undefined)
    throw invalid('prune', 'prune removes what the backup lacks; it cannot be combined with resourceIds');
}
