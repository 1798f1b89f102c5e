import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { RestoreAction } from '@libs/restore/restore-types.js';

export type RestoreOutcome = 'ok' | 'failed';

/**
 * The outcome of one write of a restore (DESIGN section 4 "item result"), in the order applied.
 * `resource_id` is the record id in the backup (for a deletion, in the live org); `new_id` the
 * id of the object afterwards when it differs (re-created objects get new ids from the provider).
 */
@Entity('restore_items')
export class RestoreItemEntity {
  @PrimaryColumn('uuid', { name: 'restore_id' })
  restoreId!: string;

  @PrimaryColumn('integer')
  seq!: number;

  @Column('text', { name: 'resource_type' })
  resourceType!: string;

  @Column('text', { name: 'resource_id' })
  resourceId!: string;

  @Column('text', { nullable: true })
  name!: string | null;

  @Column('text')
  action!: RestoreAction;

  @Column('text')
  outcome!: RestoreOutcome;

  @Column('text', { nullable: true })
  error!: string | null;

  @Column('text', { name: 'new_id', nullable: true })
  newId!: string | null;

  @Column('text', { array: true })
  notes!: string[];
}
