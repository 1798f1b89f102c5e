import { setMaxListeners } from 'node:events';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import { ObjectStoreUnavailableError } from '@libs/object-store/object-store-errors.js';
import { ProviderAuthError, ProviderError } from '@libs/providers/provider-errors.js';
import { requireProvider } from '@libs/providers/registry.js';
import type {
  EncodedResourcePart,
  ProviderConnector,
  ResourceCursors,
} from '@libs/providers/provider-connector.js';
import { SnapshotIntegrityError, SnapshotNotFoundError } from '@libs/snapshot/snapshot-errors.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import { SnapshotWriter } from '@libs/snapshot/snapshot-writer.js';
import type { AuditEntry } from '@app/audit/audit-entry.js';
import { ConflictError, NotFoundError } from '@app/common/errors.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { type RunContext, TrackedRun } from '@app/platform/jobs/tracked-run/tracked-run-kind.js';
import { TrackedRunJob } from '@app/platform/jobs/tracked-run/tracked-run-job.js';
import { TrackedRunRunner } from '@app/platform/jobs/tracked-run/tracked-run.runner.js';
import { KEY_RING } from '@app/platform/security/key-ring.provider.js';
import { OBJECT_STORE } from '@app/platform/storage/storage.module.js';
import type { BackupEntity } from './backup.entity.js';
import { backupEntry, factsOf } from './backup-audit.js';
import { describeRunning } from './backup-progress.js';
import { BackupSnapshotsService } from './backup-snapshots.service.js';
import { ChangeAttributionService } from '@app/attribution/change-attribution.service.js';
import { BackupsRepository } from './backups.repository.js';
import { type Deletions, gatherDeletions, mergedRecords } from './incremental-merge.js';
import { recordUnchanged, unchangedBase } from './unchanged-base.js';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    'backup-run': { backupId: string };
  }
}

/**
 * The `backup-run` job: streams every resource part from the provider into an encrypted
 * snapshot (DESIGN section 5), then marks the backup completed. An incremental backup fetches
 * only what changed since its base and merges it with the base's records, so every snapshot is
 * self-contained. Nothing reads as complete until the manifest is written and the row says
 * `completed`; a failure leaves `failed` with a message and no stored objects; transient
 * failures are retried by pg-boss from scratch. The lifecycle around it: TrackedRunRunner.
 */
@TrackedRun()
@Injectable()
export class BackupRunJob extends TrackedRunJob<BackupEntity, BackupsRepository> {
  readonly noun = 'backup';
  readonly internalErrorMessage = 'Internal error while writing the snapshot (see the worker log)';
  readonly staleMessage = 'The worker running this backup stopped responding; run it again';
  private readonly logger = new Logger(BackupRunJob.name);

  constructor(
    runner: TrackedRunRunner,
    runs: BackupsRepository,
    private readonly connections: ConnectionsService,
    private readonly snapshots: BackupSnapshotsService,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(KEY_RING) private readonly keyRing: KeyRing,
    private readonly attributions: ChangeAttributionService,
  ) {
    super(runner, runs);
  }

  @OnJob({ queue: 'backup-run', expireInSeconds: 2 * 3600, retryLimit: 2, retryDelay: 10 })
  handle(job: Job<'backup-run'>): Promise<void> {
    return this.start(job.data.backupId, job);
  }

  async execute(backup: BackupEntity, context: RunContext<BackupEntity>): Promise<void> {
    await this.store.deletePrefix(backup.storageKey); // a retry starts from a clean prefix
    if (backup.discardPending) await this.runs.setDiscardPending(backup.id, false);
    const connector = await this.connections.openConnector(backup.teamId, backup.connectionId);
    let included: ProviderConnector | undefined;
    try {
      included = await this.openIncluded(backup);
      const unchanged = included
        ? undefined
        : await unchangedBase(backup, connector, this.runs, context.signal);
      if (unchanged) await recordUnchanged(backup, unchanged, connector.stats().requests, context);
      else await this.capture(backup, connector, context, included);
    } finally {
      await Promise.all([connector.close(), included?.close()]);
    }
  }

  /** Refused credentials and a deleted connection do not heal by themselves: failed at once. */
  retryable(error: unknown): boolean {
    return !(error instanceof ProviderAuthError || error instanceof NotFoundError);
  }

  describe(error: unknown): string | undefined {
    return describeBackupError(error);
  }

  failedEntry(backup: BackupEntity, message: string, error: unknown): AuditEntry {
    // The provider refusing the integration's credentials is named, so it is notified as such.
    const reason =
      error instanceof ProviderAuthError
        ? { reason: 'credentials_invalid', provider: requireProvider(backup.connection.provider).label }
        : {};
    return backupEntry('backup.failed', factsOf(backup), { error: message, ...reason });
  }

  override staleEntry(backup: BackupEntity, message: string): AuditEntry {
    const { id, teamId, connectionId } = backup;
    return backupEntry('backup.failed', { id, teamId, connectionId, triggeredBy: null }, { error: message });
  }

  /**
   * A failed backup leaves no objects. When the store fails this too (it is down as the backup
   * ends), the backup is marked for the retention run to delete them once it is back.
   * @throws the store's error, once the mark is recorded
   */
  async discard(backup: BackupEntity): Promise<void> {
    try {
      await this.store.deletePrefix(backup.storageKey);
    } catch (error) {
      await this.runs.setDiscardPending(backup.id, true);
      throw error;
    }
  }

  /**
   * With `includeWorkflows`: a connector to the team's Workflows connection of the same org
   * (ConnectionsService.workflowsConnectionOf), whose types go into this backup's snapshot.
   * @throws ValidationError when that connection is gone since the backup was asked for
   */
  private async openIncluded(backup: BackupEntity): Promise<ProviderConnector | undefined> {
    if (!backup.includeWorkflows) return undefined;
    const companion = await this.connections.workflowsConnectionOf(backup.teamId, backup.connectionId);
    return this.connections.openConnector(backup.teamId, companion.id);
  }

  private async capture(
    backup: BackupEntity,
    connector: ProviderConnector,
    context: RunContext<BackupEntity>,
    included?: ProviderConnector,
  ): Promise<void> {
    const types = [...(backup.include ?? connector.resourceTypes), ...(included?.resourceTypes ?? [])];
    const incremental = await this.openBase(backup, connector);
    const writer = await SnapshotWriter.create({
      store: this.store,
      prefix: backup.storageKey,
      keyRing: this.keyRing,
      volatileFields: requireProvider(backup.connection.provider).volatileFields,
    });
    const { counts, cursors } = await this.writeParts(
      context,
      [connector, ...(included ? [included] : [])],
      writer,
      types,
      incremental,
    );
    await context.progress(97, 'Writing manifest');
    const manifest = await writer.finish({
      backupId: backup.id,
      connectionId: backup.connectionId,
      teamId: backup.teamId,
      provider: backup.connection.provider,
      orgUrl: backup.connection.orgUrl,
      kind: incremental ? 'incremental' : 'full',
      baseBackupId: incremental ? backup.baseBackupId : null,
      // Where the next incremental backup starts, type by type (ProviderConnector ResourceCursors):
      // in the manifest, so encrypted with the snapshot.
      cursors,
      startedAt: backup.startedAt.toISOString(),
      notCaptured: Object.fromEntries(
        Object.entries({ ...included?.notCaptured, ...connector.notCaptured }).filter(
          ([type]) => type in counts,
        ),
      ),
    });
    const previous = await this.runs.findPreviousCompleted(
      backup.teamId,
      backup.connectionId,
      backup.startedAt,
    );
    // Who changed what since the previous backup, from the provider's audit log (docs/diff.md).
    if (previous) await this.attributions.capture(backup, connector, previous.startedAt, context.signal);
    const fields = {
      resourceCounts: counts,
      resourceTypes: types.filter((type) => type in counts),
      size: String(manifest.totalStoredBytes),
      sha256: manifest.sha256,
      requests: connector.stats().requests + (included?.stats().requests ?? 0),
    };
    await context.finish(
      { status: 'completed', fields },
      backupEntry('backup.completed', factsOf(backup), {
        kind: incremental ? 'incremental' : 'full',
        resources: Object.values(counts).reduce((sum, n) => sum + n, 0),
        // Read by the drift check (it compares the two) and the first-backup notification.
        previous_backup_id: previous?.id ?? null,
      }),
    );
  }

  /**
   * Writes every part the connector yields, all at the same time: each waits only for its own
   * pages (and a child part for its parent's pass), so every rate-limit bucket is in use at once
   * and the wall time nears the slowest bucket's, not the sum of all (docs/backups.md "Why every part at
   * once": "at the rate-limit bound"). The connector's request cap still bounds what is in flight. The first
   * failure stops the others and is thrown once none is still writing. `connectors` are the connection's own,
   * then those `includeWorkflows` adds, each collecting its own types.
   * @returns records written per type
   */
  private async writeParts(
    context: RunContext<BackupEntity>,
    connectors: readonly ProviderConnector[],
    writer: SnapshotWriter,
    types: readonly string[],
    incremental: IncrementalBase | undefined,
  ): Promise<{ counts: Record<string, number>; cursors: Record<string, string> }> {
    const counts: Record<string, number> = {};
    const cursors: Record<string, string> = {};
    const stop = new AbortController();
    setMaxListeners(0, stop.signal); // each part and each queued request listens: no leak, no cap
    let failure: { error: unknown } | undefined;
    const fail = (error: unknown): void => {
      failure ??= { error };
      stop.abort(error);
    };
    const running = new Set<string>();
    const writePart = async (part: EncodedResourcePart): Promise<void> => {
      running.add(part.type);
      const records = incremental
        ? mergedRecords(incremental.base, part, incremental.deletions)
        : part.records;
      counts[part.type] = (await writer.writePart(part.type, records)).count;
      if (part.cursor !== undefined) cursors[part.type] = part.cursor;
      running.delete(part.type);
      const done = Object.keys(counts).length;
      const message = describeRunning(running, done, types.length);
      await context.progress(Math.round((done / types.length) * 95), message);
    };
    const writes: Promise<void>[] = [];
    const kind = incremental ? 'changes since the base backup' : 'every object';
    try {
      await context.progress(0, `Backing up ${types.length} resource types (${kind})`);
      // The first connector is the connection's own; the others (includeWorkflows) list in full.
      for (const [index, connector] of connectors.entries()) {
        const parts = connector.collect({
          types: types.filter((type) => connector.resourceTypes.includes(type)),
          cursors: index === 0 ? incremental?.cursors : undefined,
          signal: stop.signal,
          encodeWithout: writer.volatileFields,
        });
        for await (const part of parts) writes.push(writePart(part).catch(fail));
      }
    } catch (error) {
      fail(error);
    }
    await Promise.all(writes);
    if (failure) throw failure.error;
    return { counts, cursors };
  }

  /**
   * For an incremental backup: its base snapshot, the cursors its parts gave, and what the
   * provider deleted since. A base that cannot be used (deleted by retention, altered, without
   * cursors, older than the provider's audit log) turns the backup into a full one, never a failure.
   * @returns undefined for a full backup
   */
  private async openBase(
    backup: BackupEntity,
    connector: ProviderConnector,
  ): Promise<IncrementalBase | undefined> {
    if (backup.kind !== 'incremental' || backup.baseBackupId === null) return undefined;
    try {
      const base = await this.snapshots.open(backup.teamId, backup.baseBackupId);
      const cursors = cursorsOf(base.reader);
      const deletions = await gatherDeletions(connector.deletedSince(cursors));
      return { base: base.reader, cursors, deletions };
    } catch (error) {
      if (!isUnusableBase(error)) throw error;
      this.logger.warn(
        `Backup ${backup.id}: base ${backup.baseBackupId} unusable (${describeBackupError(error) ?? 'internal error'}); running full`,
      );
      await this.runs.fallBackToFull(backup.id);
      return undefined;
    }
  }
}

/** An incremental backup's base snapshot, the cursors changes are fetched from, and deletions since. */
interface IncrementalBase {
  base: SnapshotReader;
  cursors: ResourceCursors;
  deletions: Deletions;
}

/**
 * The cursors a snapshot's manifest holds.
 * @throws ConflictError `base_without_cursors` for a snapshot written before cursors were kept
 *   (the backup then runs full, and the next incremental has them)
 */
function cursorsOf(reader: SnapshotReader): ResourceCursors {
  const { cursors } = reader.manifest.meta;
  const valid =
    typeof cursors === 'object' &&
    cursors !== null &&
    Object.values(cursors).every((cursor) => typeof cursor === 'string');
  if (!valid) throw new ConflictError('base_without_cursors', 'The base backup holds no incremental cursors');
  return cursors as ResourceCursors;
}

/**
 * Errors that mean an incremental run cannot be built (the run then goes full): the base is gone
 * or altered, or the provider's audit log cannot say what was deleted since (older than it keeps,
 * or not readable with the integration's scopes). Refused credentials fail the run as usual.
 */
function isUnusableBase(error: unknown): boolean {
  if (error instanceof ProviderAuthError) return false;
  if (error instanceof ProviderError) return true;
  return (
    error instanceof NotFoundError ||
    error instanceof ConflictError ||
    error instanceof SnapshotIntegrityError ||
    error instanceof SnapshotNotFoundError
  );
}

/** A message safe to store and show: provider errors say what the provider answered; undefined for others. */
function describeBackupError(error: unknown): string | undefined {
  if (error instanceof ProviderError) return error.message;
  if (error instanceof NotFoundError) return 'The connection was deleted before the backup started';
  if (error instanceof Error && error.name === 'SnapshotIntegrityError')
    return `Snapshot write failed: ${error.message}`;
  if (error instanceof ObjectStoreUnavailableError) return `Storing the snapshot failed: ${error.message}`;
  return undefined;
}
