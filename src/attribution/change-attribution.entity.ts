import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ChangeActor } from '@libs/providers/provider-connector.js';

/**
 * One change to one object and who made it, from the provider's audit log, kept by the backup
 * that read it (migrations/1796675117313-CreateChangeAttributions.ts; libs/providers/provider-connector.ts
 * `ChangeAttribution`).
 */
@Entity('change_attributions')
export class ChangeAttributionEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  @Column('uuid', { name: 'connection_id' })
  connectionId!: string;

  /** the backup that read it; null once retention deleted that backup */
  @Column('uuid', { name: 'backup_id', nullable: true })
  backupId!: string | null;

  @Column('text', { name: 'event_id' })
  eventId!: string;

  @Column('text', { name: 'target_id' })
  targetId!: string;

  @Column('text', { name: 'target_type', nullable: true })
  targetType!: string | null;

  @Column('text', { name: 'resource_type', nullable: true })
  resourceType!: string | null;

  @Column('text', { name: 'event_type' })
  eventType!: string;

  @Column('timestamptz', { name: 'changed_at' })
  changedAt!: Date;

  @Column('text', { name: 'actor_id' })
  actorId!: string;

  @Column('text', { name: 'actor_display_name' })
  actorDisplayName!: string;

  @Column('text', { name: 'actor_type' })
  actorType!: ChangeActor['type'];

  @Column('text', { name: 'actor_alternate_id', nullable: true })
  actorAlternateId!: string | null;

  @Column('text', { name: 'actor_ip', nullable: true })
  actorIp!: string | null;

  @Column('text', { name: 'actor_user_agent', nullable: true })
  actorUserAgent!: string | null;

  @Column('boolean', { name: 'by_this_service' })
  byThisService!: boolean;
}
