import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { SERVICE_VERSION } from '@app/config/version.js';
import { HealthRepository } from './health.repository.js';

export interface HealthStatus {
  status: 'ok';
  /** Seconds since this process started. */
  uptime: number;
  version: string;
}

@Injectable()
export class HealthService {
  constructor(private readonly database: HealthRepository) {}

  /** @throws ServiceUnavailableException (503) when PostgreSQL, which carries the job queue, does not answer. */
  async check(): Promise<HealthStatus> {
    try {
      await this.database.ping();
    } catch {
      throw new ServiceUnavailableException('Database unreachable');
    }
    return { status: 'ok', uptime: Math.round(process.uptime()), version: SERVICE_VERSION };
  }
}
