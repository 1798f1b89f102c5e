import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConnectionsModule } from '@app/connections/connections.module.js';
import { ConnectionDriftEntity } from './connection-drift.entity.js';
import { ConnectionDriftJob, ConnectionDriftTimer } from './connection-drift.job.js';
import { ScoresController } from './scores.controller.js';
import { ScoresRepository } from './scores.repository.js';
import { ScoresService } from './scores.service.js';

/** Resilience and readiness scores and the drift job (spec "Scores", docs/scores.md). */
@Module({
  imports: [TypeOrmModule.forFeature([ConnectionDriftEntity]), ConnectionsModule],
  controllers: [ScoresController],
  providers: [ScoresService, ScoresRepository, ConnectionDriftJob, ConnectionDriftTimer],
})
export class ScoresModule {}
