import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThanOrEqual, Repository } from 'typeorm';
import { ReportEntity } from './report.entity.js';

/** Stored reports; only this class touches `reports`. */
@Injectable()
export class ReportsRepository {
  constructor(@InjectRepository(ReportEntity) private readonly rows: Repository<ReportEntity>) {}

  async insert(
    report: Pick<ReportEntity, 'id' | 'teamId' | 'type' | 'objectKey' | 'createdBy' | 'expiresAt'>,
  ): Promise<void> {
    await this.rows.insert(report);
  }

  /** Up to `limit` reports expired at `now`, oldest expiry first (index reports_expires). */
  findExpired(now: Date, limit: number): Promise<Array<Pick<ReportEntity, 'id' | 'objectKey'>>> {
    return this.rows.find({
      select: { id: true, objectKey: true },
      where: { expiresAt: LessThanOrEqual(now) },
      order: { expiresAt: 'ASC' },
      take: limit,
    });
  }

  async delete(ids: string[]): Promise<void> {
    if (ids.length > 0) await this.rows.delete({ id: In(ids) });
  }
}
