import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { SignInMethod } from './sign-in-method.js';

/**
 * A signed-in browser session: a user acting in one team. The cookie holds a random id; only
 * its SHA-256 is stored, so a copy of the table signs nobody in. Maps `sessions`.
 */
@Entity('sessions')
export class SessionEntity {
  /** base64url SHA-256 of the cookie value. */
  @PrimaryColumn('text', { name: 'id_hash' })
  idHash!: string;

  @Column('uuid', { name: 'user_id' })
  userId!: string;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  @Column('text')
  method!: SignInMethod;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Refreshed at most once a minute; the idle timeout counts from here. */
  @Column('timestamptz', { name: 'last_seen_at' })
  lastSeenAt!: Date;

  /** Absolute end: created_at + SESSION_ABSOLUTE_TIMEOUT. */
  @Column('timestamptz', { name: 'expires_at' })
  expiresAt!: Date;
}
