import { Inject, Injectable } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/app-config.js';
import { SchedulesService } from '../schedules/schedules.service.js';

/**
 * Each minute, on every replica that runs jobs, enqueues the backups of due schedules (DESIGN
 * section 1). Replicas need no leader: SchedulesService claims each slot once.
 */
@Injectable()
export class EnqueueDueBackupsCron {
  /** `api` replicas serve HTTP only; `worker` and `all` run jobs (DESIGN section 1). */
  private readonly runsJobs: boolean;

  constructor(
    private readonly schedules: SchedulesService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.runsJobs = config.ROLE !== 'api';
  }

  /** Errors are logged by @nestjs/schedule; the next tick tries again. */
  @Cron('* * * * *', { name: 'enqueue-due-backups', timeZone: 'UTC', waitForCompletion: true })
  async enqueueDueBackups(): Promise<void> {
    if (this.runsJobs) await this.schedules.enqueueDue(new Date());
  }
}
