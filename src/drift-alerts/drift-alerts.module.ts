import { Module } from '@nestjs/common';
import { DiffModule } from '@app/diff/diff.module.js';
import { DriftAlertJob } from './drift-alert.job.js';

/** Drift alerts: each completed backup compared with the previous one, off the backup's path (issue 25). */
@Module({
  imports: [DiffModule],
  providers: [DriftAlertJob],
})
export class DriftAlertsModule {}
