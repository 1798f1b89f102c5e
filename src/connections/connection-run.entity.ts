import { Column, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TrackedRunEntity } from '@app/platform/database/tracked-run/tracked-run.entity.js';
import { ConnectionEntity } from './connection.entity.js';

/** A tracked run on one connection (a backup of its org, a restore into it). */
export abstract class ConnectionRunEntity extends TrackedRunEntity {
  @Column('uuid', { name: 'connection_id' })
  connectionId!: string;

  @ManyToOne(() => ConnectionEntity)
  @JoinColumn({ name: 'connection_id' })
  connection!: Relation<ConnectionEntity>;
}
