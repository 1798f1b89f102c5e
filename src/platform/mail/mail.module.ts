import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailService } from './mail.service.js';
import { OutboxEmailEntity } from './outbox-email.entity.js';
import { OutboxRepository } from './outbox.repository.js';

/** Transactional e-mail: SMTP when configured, else the outbox table (DESIGN section 2). */
@Module({
  imports: [TypeOrmModule.forFeature([OutboxEmailEntity])],
  providers: [MailService, OutboxRepository],
  exports: [MailService],
})
export class MailModule {}
