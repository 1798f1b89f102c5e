import type { ProviderKind } from '@libs/providers/provider-kind.js';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A team's link to one identity-provider tenant (spec "Connection"); its credentials are stored only sealed. */
@Entity('connections')
export class ConnectionEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  @Column('uuid', { name: 'owner_user_id' })
  ownerUserId!: string;

  @Column('text')
  provider!: ProviderKind;

  @Column('text', { name: 'org_url' })
  orgUrl!: string;

  @Column('text', { name: 'org_name', nullable: true })
  orgName!: string | null;

  /** every credential field the provider's descriptor names, as one sealed JSON object */
  @Column('text', { name: 'credentials_enc' })
  credentialsEnc!: string;

  /** the credential fields that are not secret (Okta: `client_id`), to show without decrypting */
  @Column('jsonb', { name: 'public_credentials' })
  publicCredentials!: Record<string, string>;

  @Column('timestamptz', { name: 'last_verified_at', nullable: true })
  lastVerifiedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column('timestamptz', { name: 'deleted_at', nullable: true })
  deletedAt!: Date | null;
}
