import { ApprovalGateModule } from '@app/approvals/approval-gate.module.js';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AttributionModule } from '@app/attribution/attribution.module.js';
import { ConnectionsModule } from '@app/connections/connections.module.js';
import { StorageModule } from '@app/platform/storage/storage.module.js';
import { SchedulesModule } from '@app/schedules/schedules.module.js';
import { BackupEntity } from './backup.entity.js';
import { BackupPlanner } from './backup-planner.js';
import { BackupRunJob } from './backup-run.job.js';
import { BackupSnapshotsService } from './backup-snapshots.service.js';
import { BackupRetentionJob } from './backup-retention.job.js';
import { BackupsController } from './backups.controller.js';
import { BackupUploadController } from './backup-upload.controller.js';
import { BackupUploadService } from './backup-upload.service.js';
import { BackupsRepository } from './backups.repository.js';
import { BackupsService } from './backups.service.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([BackupEntity]),
    AttributionModule,
    ConnectionsModule,
    SchedulesModule,
    StorageModule,
    ApprovalGateModule,
  ],
  controllers: [BackupsController, BackupUploadController],
  providers: [
    BackupsService,
    BackupUploadService,
    BackupsRepository,
    BackupPlanner,
    BackupSnapshotsService,
    BackupRunJob,
    BackupRetentionJob,
  ],
  exports: [BackupsService, BackupSnapshotsService, BackupRetentionJob],
})
export class BackupsModule {}
