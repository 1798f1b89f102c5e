import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SERVICE_VERSION } from '@app/config/version.js';

export interface HealthStatus {
  status: 'ok';
  /** Seconds since this process started. */
  uptime: number;
  version: string;
}

@Injectable()
export class HealthService {
  constructor(private readonly dataSource: DataSource) {}

  /** @throws ServiceUnavailableException (503) when PostgreSQL, which carries the job queue, does not answer. */
  async check(): Promise<HealthStatus> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new ServiceUnavailableException('Database unreachable');
    }
    return { status: 'ok', uptime: Math.round(process.uptime()), version: SERVICE_VERSION };
  }
}
