import type { RestoreOptionValues } from '@libs/providers/provider-restore.js';
import { Column, Entity } from 'typeorm';
import type { CrossOrgMapping } from '@libs/restore/cross-org/mapping.js';
import type { UndoField } from '@libs/restore/field-revert.js';
import type { RestoreTypeSummary } from '@libs/restore/restore-types.js';
import { ConnectionRunEntity } from '@app/connections/connection-run.entity.js';

/** DESIGN section 4: `pending` -> `running` -> `completed` | `partial` | `failed`. */
export type RestoreStatus = 'pending' | 'running' | 'completed' | 'partial' | 'failed';
export type RestoreMode = 'full' | 'selective' | 'undo';

/** The attribution filter an undo was asked with (libs/restore/undo.ts; docs/restore.md). */
export interface RestoreUndoFilter {
  actor?: string;
  since?: string;
  until?: string;
  /** only these fields of these objects put back (docs/restore.md "Revert one field") */
  fields?: UndoField[];
}

/**
 * One restore of a backup into its connection's live org (migrations/1764300000000-CreateRestores.ts):
 * a tracked run queued as `pending`, taken once.
 */
@Entity('restores')
export class RestoreEntity extends ConnectionRunEntity {
  declare status: RestoreStatus;

  /** null once retention deleted the backup */
  @Column('uuid', { name: 'backup_id', nullable: true })
  backupId!: string | null;

  @Column('uuid', { name: 'pre_restore_backup_id', nullable: true })
  preRestoreBackupId!: string | null;

  @Column('uuid', { name: 'requested_by', nullable: true })
  requestedBy!: string | null;

  @Column('text')
  mode!: RestoreMode;

  /** selective restores: the types asked for (categories resolved); null for full */
  @Column('text', { name: 'resource_types', array: true, nullable: true })
  resourceTypes!: string[] | null;

  @Column('text', { name: 'resource_ids', array: true, nullable: true })
  resourceIds!: string[] | null;

  @Column('boolean')
  prune!: boolean;

  /** an undo (`mode` undo): whose changes, in which window; null for other restores */
  @Column('jsonb', { nullable: true })
  undo!: RestoreUndoFilter | null;

  @Column('boolean', { name: 'activate_users' })
  activateUsers!: boolean;

  /** the values of the provider's restore options (descriptor `restoreOptions`; Entra ID: `enforce`) */
  @Column('jsonb', { default: {} })
  options!: RestoreOptionValues;

  @Column('jsonb')
  summary!: Record<string, RestoreTypeSummary>;

  /** the re-import package of a provider written by hand (restore-packages.ts), else null */
  @Column('text', { name: 'package_key', nullable: true })
  packageKey!: string | null;

  /** a restore into another org: the connection whose backup it restores (null once deleted); else null */
  @Column('uuid', { name: 'source_connection_id', nullable: true })
  sourceConnectionId!: string | null;

  /** a restore into another org: what carries the backup over (`{}` when nothing); else null */
  @Column('jsonb', { nullable: true })
  mapping!: CrossOrgMapping | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}
