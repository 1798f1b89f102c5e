import { Inject, Injectable } from '@nestjs/common';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import { ConflictError, NotFoundError } from '@app/common/errors.js';
import { KEY_RING } from '@app/platform/security/key-ring.provider.js';
import { OBJECT_STORE } from '@app/platform/storage/storage.module.js';
import { type BackupRef, toBackupRef } from './backup-ref.js';
import { BackupsRepository } from './backups.repository.js';

/** A completed backup and its opened snapshot. */
export interface OpenedBackup {
  backup: BackupRef;
  reader: SnapshotReader;
}

/**
 * Opens the snapshots of a team's completed backups for reading (diff, timeline, restore), checking
 * each against the fingerprint recorded when it was written, so a snapshot swapped in the store is
 * refused (`SnapshotIntegrityError`).
 */
@Injectable()
export class BackupSnapshotsService {
  constructor(
    private readonly backups: BackupsRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(KEY_RING) private readonly keyRing: KeyRing,
  ) {}

  /**
   * @throws NotFoundError for a backup the team cannot see (another team's is a 404 too)
   * @throws ConflictError `backup_not_completed` for a running or failed backup
   */
  async open(teamId: string, backupId: string): Promise<OpenedBackup> {
    const backup = await this.backups.findVisible(teamId, backupId);
    if (!backup) throw new NotFoundError('Backup');
    if (backup.status !== 'completed' || backup.sha256 === null) {
      throw new ConflictError(
        'backup_not_completed',
        `Backup ${backupId} is ${backup.status}, not completed`,
      );
    }
    return this.openFound(toBackupRef(backup));
  }

  /**
   * The last `limit` completed backups of a connection, oldest first, opened.
   * @param limit 1 to 100
   */
  async openLatest(teamId: string, connectionId: string, limit: number): Promise<OpenedBackup[]> {
    const backups = (await this.backups.listCompleted(teamId, connectionId, limit)).reverse();
    return Promise.all(backups.map((backup) => this.openFound(toBackupRef(backup))));
  }

  /**
   * The backup to read by default: the connection's latest completed one, or null. Not opened,
   * so a caller holding a stored result for it never touches the object store.
   */
  async latest(teamId: string, connectionId: string): Promise<BackupRef | null> {
    const [backup] = await this.backups.listCompleted(teamId, connectionId, 1);
    return backup ? toBackupRef(backup) : null;
  }

  /** When the connection's completed backup before `backup` started, or null for its first. */
  async previousStartedAt(backup: BackupRef): Promise<Date | null> {
    const previous = await this.backups.findPreviousCompleted(
      backup.teamId,
      backup.connectionId,
      backup.startedAt,
    );
    return previous?.startedAt ?? null;
  }

  /** Opens a completed backup found by `latest` or `open`. */
  async openFound(backup: BackupRef): Promise<OpenedBackup> {
    return { backup, reader: await this.#reader(backup) };
  }

  #reader(backup: BackupRef): Promise<SnapshotReader> {
    return SnapshotReader.open({
      store: this.store,
      prefix: backup.storageKey,
      keyRing: this.keyRing,
      expectedSha256: backup.sha256 ?? undefined,
    });
  }
}
