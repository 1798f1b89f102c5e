import { Module } from '@nestjs/common';
import { DiffModule } from '@app/diff/diff.module.js';
import { DriftAlertJob } from './drift-alert.job.js';

/**
 * Drift alerts: each completed backup compared with the previous one, off the backup's path
 * (docs/notifications.md).
 */
@Module({
  imports: [DiffModule],
  providers: [DriftAlertJob],
})
export class DriftAlertsModule {}
