import type { ConnectionRef } from '@app/connections/connection-ref.js';
import type { BackupEntity } from './backup.entity.js';

/**
 * A completed backup as other features see it (diff, timeline, restore, compliance): plain
 * values copied from the row, never the entity, so no ORM shape or relation leaves src/backups.
 */
export interface BackupRef {
  readonly id: string;
  readonly teamId: string;
  readonly connectionId: string;
  /** The owning connection: its provider decides the resource types, its org the restore's source. */
  readonly connection: Readonly<Pick<ConnectionRef, 'id' | 'provider' | 'orgUrl' | 'orgName'>>;
  readonly startedAt: Date;
  readonly completedAt: Date | null;
  /** Object store prefix of the snapshot. */
  readonly storageKey: string;
  /** SHA-256 of the manifest as written, checked when the snapshot is opened. */
  readonly sha256: string | null;
}

/** The ref of a completed backup row loaded with its connection. */
export function toBackupRef(row: BackupEntity): BackupRef {
  const { connection } = row;
  return {
    id: row.id,
    teamId: row.teamId,
    connectionId: row.connectionId,
    connection: {
      id: connection.id,
      provider: connection.provider,
      orgUrl: connection.orgUrl,
      orgName: connection.orgName,
    },
    startedAt: row.startedAt,
    completedAt: row.completedAt,
    storageKey: row.storageKey,
    sha256: row.sha256,
  };
}
