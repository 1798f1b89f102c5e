import { Injectable } from '@nestjs/common';
import { BackupSnapshotsService } from '@app/backups/backup-snapshots.service.js';
import { diffModelOf } from '@libs/providers/registry.js';
import { resolveIncludedTypes } from '@app/backups/included-types.js';
import type { Actor } from '@app/common/actor.js';
import { ConflictError } from '@app/common/errors.js';
import { type DiffSummary, summarize } from './diff-summary.js';
import type { DiffRequestDto } from './dto/diff-request.dto.js';
import { type ResourceChange, diffSnapshots, forEachChange } from './snapshot-diff.js';
import {
  ChangeAttributionService,
  NO_COMMON_LOG,
  noLogReason,
} from '@app/attribution/change-attribution.service.js';
import type { OpenedBackup } from '@app/backups/backup-snapshots.service.js';
import { requireProvider } from '@libs/providers/registry.js';
import { type AttributedChange, attributeChanges } from './diff-attribution.js';
import { RestoreHistory } from '@app/restore/restore-history.js';
import type { ProviderDescriptor } from '@libs/providers/provider-descriptor.js';
import type { RecreatedPair, Recreation } from './recreation.js';

/** Response of POST and GET /api/diff (spec "Diff"). */
export interface DiffResult {
  /** each with who made it, from the provider's audit log (docs/diff.md "Who changed it") */
  changes: AttributedChange[];
  summary: DiffSummary;
}

/** Compares two backups the caller's team can see (spec "Diff", DESIGN section 5). */
@Injectable()
export class DiffService {
  constructor(
    private readonly snapshots: BackupSnapshotsService,
    private readonly attributions: ChangeAttributionService,
    private readonly restores: RestoreHistory,
  ) {}

  /**
   * @throws NotFoundError when either backup is missing or another team's
   * @throws ConflictError `backup_not_completed` when either is running or failed;
   *   `snapshots_not_comparable` when they hash with different volatile field lists
   * @throws ValidationError for an unknown entry of `resourceTypes`
   */
  diff(actor: Actor, request: DiffRequestDto): Promise<DiffResult> {
    return this.diffInTeam(actor.teamId, request);
  }

  /** `diff` for a job, which acts in a team without a caller. @throws as `diff` */
  async diffInTeam(teamId: string, request: DiffRequestDto): Promise<DiffResult> {
    const { from, to, resourceTypes, notCompared, volatile, provider } = await this.open(teamId, request);
    const recreated: RecreatedPair[] = [];
    const recreation = await this.recreation(teamId, from, to, volatile, recreated);
    const found = await diffSnapshots(from.reader, to.reader, resourceTypes, volatile, provider, recreation);
    const index = await this.attributionIndex(teamId, from, to);
    const changes = attributeChanges(found, index, request);
    const summary = summarize(from.backup, to.backup, changes, { resourceTypes, notCompared });
    return { changes, summary: { ...summary, recreated } };
  }

  /**
   * How the diff pairs objects the restores between two backups of one connection re-created under
   * new ids (docs/diff.md "Re-created objects"); undefined for two connections, which share no
   * restore. Pairs that differ in nothing but server-owned fields go to `unchanged`.
   */
  private async recreation(
    teamId: string,
    from: OpenedBackup,
    to: OpenedBackup,
    volatile: ReadonlySet<string>,
    unchanged: RecreatedPair[],
  ): Promise<Recreation | undefined> {
    if (from.backup.connectionId !== to.backup.connectionId) return undefined;
    const forward = from.backup.startedAt <= to.backup.startedAt;
    const [first, last] = forward ? [from, to] : [to, from];
    const until = last.backup.startedAt;
    const ids = await this.restores.recreatedIds(
      teamId,
      first.backup.connectionId,
      first.backup.startedAt,
      until,
    );
    if (ids.size === 0) return undefined;
    const descriptor: ProviderDescriptor = requireProvider(from.backup.connection.provider);
    return {
      ids: forward ? ids : new Map([...ids].map(([old, now]) => [now, old])),
      serverOwned: new Set([...volatile, 'id', ...(descriptor.serverOwnedFields ?? [])]),
      unchanged: (pair) => unchanged.push(pair),
    };
  }

  /**
   * Who changed what between the two backups (the earlier's start to the later's end), as the
   * backups kept it; a comparison of two connections has no common log (`not_available`).
   */
  private async attributionIndex(teamId: string, from: OpenedBackup, to: OpenedBackup) {
    const [first, last] = from.backup.startedAt <= to.backup.startedAt ? [from, to] : [to, from];
    const unavailable =
      first.backup.connectionId === last.backup.connectionId
        ? noLogReason(requireProvider(first.backup.connection.provider))
        : NO_COMMON_LOG;
    const until = last.backup.completedAt ?? last.backup.startedAt;
    return this.attributions.indexOf(
      teamId,
      first.backup.connectionId,
      first.backup.startedAt,
      until,
      unavailable,
    );
  }

  /**
   * The changes of `diffInTeam` handed to `visit` as they are found, none kept (`forEachChange`):
   * for a job that folds them (the drift alert), whatever the size of the diff.
   * @throws as `diff`
   */
  async visitInTeam(
    teamId: string,
    request: DiffRequestDto,
    visit: (change: ResourceChange) => void,
  ): Promise<void> {
    const { from, to, resourceTypes, volatile, provider } = await this.open(teamId, request);
    await forEachChange(from.reader, to.reader, resourceTypes, volatile, provider, visit);
  }

  private async open(teamId: string, request: DiffRequestDto) {
    const from = await this.snapshots.open(teamId, request.fromBackupId);
    const to = await this.snapshots.open(teamId, request.toBackupId);
    const volatile = from.reader.manifest.volatileFields;
    if (JSON.stringify(volatile) !== JSON.stringify(to.reader.manifest.volatileFields)) {
      throw new ConflictError(
        'snapshots_not_comparable',
        'The two backups were written with different volatile field lists; their hashes do not compare',
      );
    }
    const wanted =
      request.resourceTypes === undefined
        ? [...new Set([...from.reader.types, ...to.reader.types])]
        : resolveIncludedTypes(from.backup.connection.provider, request.resourceTypes, 'resourceTypes');
    const resourceTypes = wanted.filter((type) => from.reader.has(type) && to.reader.has(type));
    const notCompared = wanted.filter((type) => !resourceTypes.includes(type));
    const provider = diffModelOf(from.backup.connection.provider);
    return { from, to, resourceTypes, notCompared, volatile: new Set(volatile), provider };
  }
}
