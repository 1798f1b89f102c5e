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
