import { Module } from '@nestjs/common';
import { BackupsModule } from '@app/backups/backups.module.js';
import { DiffController } from './diff.controller.js';
import { DiffService } from './diff.service.js';

/** Backup comparison (spec "Diff"). */
@Module({
  imports: [BackupsModule],
  controllers: [DiffController],
  providers: [DiffService],
  exports: [DiffService],
})
export class DiffModule {}
