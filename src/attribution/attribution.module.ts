import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChangeAttributionEntity } from './change-attribution.entity.js';
import { ChangeAttributionService } from './change-attribution.service.js';
import { ChangeAttributionsRepository } from './change-attributions.repository.js';

/** Who changed what, kept with the backups (docs/diff.md "Who changed it"). */
@Module({
  imports: [TypeOrmModule.forFeature([ChangeAttributionEntity])],
  providers: [ChangeAttributionService, ChangeAttributionsRepository],
  exports: [ChangeAttributionService],
})
export class AttributionModule {}
