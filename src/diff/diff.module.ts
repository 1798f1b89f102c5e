import { Module } from '@nestjs/common';
import { AttributionModule } from '@app/attribution/attribution.module.js';
import { BackupsModule } from '@app/backups/backups.module.js';
import { RestoreHistoryModule } from '@app/restore/restore-history.module.js';
import { DiffController } from './diff.controller.js';
import { DiffService } from './diff.service.js';

/** Backup comparison (spec "Diff"). */
@Module({
  imports: [AttributionModule, BackupsModule, RestoreHistoryModule],
  controllers: [DiffController],
  providers: [DiffService],
  exports: [DiffService],
})
export class DiffModule {}
