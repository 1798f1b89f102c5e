import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Role } from '@app/common/permission.js';

/**
 * An invitation of an e-mail address to a team with a role other than `super_admin`; it is
 * pending until accepted at that address's sign-in, and void once `expiresAt` has passed.
 * Maps `team_invitations` (migration 1764200000000).
 */
@Entity('team_invitations')
export class TeamInvitationEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  /** Normalized (see email-address.ts). */
  @Column('text')
  email!: string;

  @Column('text')
  role!: Exclude<Role, 'super_admin'>;

  /** Null once the inviting user no longer exists. */
  @Column('uuid', { name: 'invited_by', nullable: true })
  invitedBy!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt!: Date;

  @Column('timestamptz', { name: 'accepted_at', nullable: true })
  acceptedAt!: Date | null;

  @Column('uuid', { name: 'accepted_by', nullable: true })
  acceptedBy!: string | null;
}
