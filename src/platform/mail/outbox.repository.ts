import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { OutboxEmailEntity } from './outbox-email.entity.js';

/** The e-mail outbox (`outbox_emails`). */
@Injectable()
export class OutboxRepository {
  constructor(@InjectRepository(OutboxEmailEntity) private readonly rows: Repository<OutboxEmailEntity>) {}

  async insert(email: Pick<OutboxEmailEntity, 'recipient' | 'subject' | 'body'>): Promise<void> {
    await this.rows.insert(email);
  }

  /** The newest `limit` e-mails, to `recipient` (case-insensitive) when given. */
  list(recipient: string | undefined, limit: number): Promise<OutboxEmailEntity[]> {
    const query = this.rows.createQueryBuilder('email').orderBy('email.created_at', 'DESC').limit(limit);
    if (recipient !== undefined) query.where('lower(email.recipient) = lower(:recipient)', { recipient });
    return query.getMany();
  }

  /** Deletes what was written more than `ageSeconds` ago. @returns rows removed. */
  async deleteOlderThan(ageSeconds: number): Promise<number> {
    const result = await this.rows
      .createQueryBuilder()
      .delete()
      .where('created_at < now() - make_interval(secs => :age)', { age: ageSeconds })
      .execute();
    return result.affected ?? 0;
  }
}
