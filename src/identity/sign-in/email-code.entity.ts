import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The pending sign-in code of one address and its send budget. The code itself is never stored,
 * only its HMAC (email-code.ts). Maps `sign_in_codes`.
 */
@Entity('sign_in_codes')
export class EmailCodeEntity {
  /** Normalized address (src/identity/teams/email-address.ts). */
  @PrimaryColumn('text')
  email!: string;

  /** Null once used or voided. */
  @Column('text', { name: 'code_hash', nullable: true })
  codeHash!: string | null;

  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt!: Date | null;

  @Column('smallint', { name: 'failed_attempts' })
  failedAttempts!: number;

  @Column('timestamptz', { name: 'window_started_at' })
  windowStartedAt!: Date;

  @Column('smallint', { name: 'sends_in_window' })
  sendsInWindow!: number;
}
