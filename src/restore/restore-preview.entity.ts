import type { RestoreOptionValues } from '@libs/providers/provider-restore.js';
import { Column, Entity } from 'typeorm';
import { ConnectionRunEntity } from '@app/connections/connection-run.entity.js';
import type { RestorePreview } from './restore-results.js';
import type { UndoPreviewQuery } from './undo/undo-preview.query.js';
import type { UndoPreviewDto } from './undo/undo-preview.dto.js';

/** `pending` -> `running` -> `completed` | `failed` (a preview writes nothing: never partial). */
export type RestorePreviewStatus = 'pending' | 'running' | 'completed' | 'failed';

/**
 * A restore preview run as a job (migrations/1765700000000-CreateRestorePreviews.ts): a tracked
 * run queued `pending`, taken once, whose `result` is the preview once `completed`.
 */
@Entity('restore_previews')
export class RestorePreviewEntity extends ConnectionRunEntity {
  declare status: RestorePreviewStatus;

  /** null once retention deleted the backup */
  @Column('uuid', { name: 'backup_id', nullable: true })
  backupId!: string | null;

  @Column('uuid', { name: 'requested_by', nullable: true })
  requestedBy!: string | null;

  /** the types previewed (categories resolved) */
  @Column('text', { name: 'resource_types', array: true })
  resourceTypes!: string[];

  @Column('text', { name: 'resource_ids', array: true, nullable: true })
  resourceIds!: string[] | null;

  @Column('boolean', { name: 'activate_users' })
  activateUsers!: boolean;

  /** the values of the provider's restore options (descriptor `restoreOptions`; Entra ID: `enforce`) */
  @Column('jsonb', { default: {} })
  options!: RestoreOptionValues;

  @Column('jsonb', { nullable: true })
  result!: RestorePreview | null;

  /** an undo's dry run (GET /api/restore/undo): its query; null for a restore's dry run */
  @Column('jsonb', { nullable: true })
  undo!: UndoPreviewQuery | null;

  /** an undo's dry run, once completed: the preview GET /api/restore/undo answers */
  @Column('jsonb', { name: 'undo_result', nullable: true })
  undoResult!: UndoPreviewDto | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}
