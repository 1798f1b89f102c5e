import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChangeAttributionEntity } from './change-attribution.entity.js';
import { ChangeAttributionService } from './change-attribution.service.js';
import { ChangeAttributionsRepository } from './change-attributions.repository.js';
import { ChangeAttributionReadEntity } from './change-attribution-read.entity.js';
import { ChangeAttributionReadsRepository } from './change-attribution-reads.repository.js';

/** Who changed what, kept with the backups (docs/diff.md "Who changed it"). */
@Module({
  imports: [TypeOrmModule.forFeature([ChangeAttributionEntity, ChangeAttributionReadEntity])],
  providers: [ChangeAttributionService, ChangeAttributionsRepository, ChangeAttributionReadsRepository],
  exports: [ChangeAttributionService],
})
export class AttributionModule {}
