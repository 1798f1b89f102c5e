import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Role } from '@app/common/permission.js';

/**
 * An integration client of a team (OAuth 2.0 `client_credentials`), acting with `role` on
 * behalf of the user who created it. Only a hash of its secret is stored. Maps `oauth_clients`.
 */
@Entity('oauth_clients')
export class OAuthClientEntity {
  @PrimaryColumn('text', { name: 'client_id' })
  clientId!: string;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  @Column('text')
  role!: Role;

  @Column('text')
  name!: string;

  /** `sha256:<base64url digest>`, see client-secret.ts. */
  @Column('text', { name: 'secret_hash' })
  secretHash!: string;

  @Column('uuid', { name: 'created_by' })
  createdBy!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;
}
