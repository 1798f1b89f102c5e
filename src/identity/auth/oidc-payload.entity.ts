import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One stored oidc-provider artifact (session, grant, authorization code, refresh token, ...),
 * keyed by model name and id. Maps `oidc_payloads`.
 */
@Entity('oidc_payloads')
export class OidcPayloadEntity {
  @PrimaryColumn('text')
  id!: string;

  /** oidc-provider model name, e.g. `Session`, `RefreshToken`. */
  @PrimaryColumn('text')
  type!: string;

  @Column('jsonb')
  payload!: Record<string, unknown>;

  @Column('text', { name: 'grant_id', nullable: true })
  grantId!: string | null;

  @Column('text', { name: 'user_code', nullable: true })
  userCode!: string | null;

  @Column('text', { nullable: true })
  uid!: string | null;

  /** Null: never expires. */
  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt!: Date | null;

  @Column('timestamptz', { name: 'consumed_at', nullable: true })
  consumedAt!: Date | null;
}
