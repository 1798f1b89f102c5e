import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The database as the health check sees it. */
@Injectable()
export class HealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** @throws whatever the driver throws when PostgreSQL does not answer. */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }
}
