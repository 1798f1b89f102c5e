import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An e-mail the service would have sent, kept when no SMTP server is configured (on-prem
 * evaluation, DESIGN section 2). Maps `outbox_emails`.
 */
@Entity('outbox_emails')
export class OutboxEmailEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column('text')
  recipient!: string;

  @Column('text')
  subject!: string;

  @Column('text')
  body!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
