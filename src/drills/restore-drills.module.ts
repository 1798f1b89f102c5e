import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BackupsModule } from '@app/backups/backups.module.js';
import { SchedulesModule } from '@app/schedules/schedules.module.js';
import { RestoreModule } from '@app/restore/restore.module.js';
import { RestoreDrillEntity } from './restore-drill.entity.js';
import { RestoreDrillRunJob } from './restore-drill-run.job.js';
import { RestoreDrillsController } from './restore-drills.controller.js';
import { RestoreDrillsRepository } from './restore-drills.repository.js';
import { RestoreDrillsService } from './restore-drills.service.js';
import { WeeklyVerificationJob } from './weekly-verification.job.js';

/** Restore drills: snapshots verified end to end in a job (docs/backups.md). */
@Module({
  imports: [TypeOrmModule.forFeature([RestoreDrillEntity]), BackupsModule, SchedulesModule, RestoreModule],
  controllers: [RestoreDrillsController],
  providers: [RestoreDrillsService, RestoreDrillsRepository, RestoreDrillRunJob, WeeklyVerificationJob],
  exports: [RestoreDrillsService, WeeklyVerificationJob],
})
export class RestoreDrillsModule {}
