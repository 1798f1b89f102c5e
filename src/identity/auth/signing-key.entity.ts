import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A key pair of the authorization server. The private JWK is stored only encrypted under the
 * master key (aad `signing-key:<kid>`). Maps `oauth_signing_keys`.
 */
@Entity('oauth_signing_keys')
export class SigningKeyEntity {
  /** RFC 7638 thumbprint of the public key. */
  @PrimaryColumn('text')
  kid!: string;

  @Column('text', { name: 'private_jwk_enc' })
  privateJwkEnc!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'retired_at', nullable: true })
  retiredAt!: Date | null;
}
