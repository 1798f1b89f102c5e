import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A random secret shared by every replica, stored only encrypted under the master key (aad
 * `sign-in-secret:<name>`). The sign-in HMAC keys are derived from it. Maps `sign_in_secrets`.
 */
@Entity('sign_in_secrets')
export class SignInSecretEntity {
  @PrimaryColumn('text')
  name!: string;

  @Column('text', { name: 'secret_enc' })
  secretEnc!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
