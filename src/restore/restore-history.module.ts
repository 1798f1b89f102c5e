import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RestoreItemEntity } from './restore-item.entity.js';
import { RestoreEntity } from './restore.entity.js';
import { RestoreHistory } from './restore-history.js';
import { RestoresRepository } from './restores.repository.js';

/**
 * RestoreHistory alone, for features that read when restores happened (compliance) and must
 * not depend on the restore workflow's module.
 */
@Module({
  imports: [TypeOrmModule.forFeature([RestoreEntity, RestoreItemEntity])],
  providers: [RestoreHistory, RestoresRepository],
  exports: [RestoreHistory],
})
export class RestoreHistoryModule {}
