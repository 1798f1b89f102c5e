import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConnectionsModule } from '@app/connections/connections.module.js';
import { ConnectionDriftEntity } from './connection-drift.entity.js';
import { ConnectionDriftJob, ConnectionDriftTimer } from './connection-drift.job.js';
import { ScoreHistoryJob } from './score-history.job.js';
import { ScoreHistoryRepository } from './score-history.repository.js';
import { ScoreHistoryService } from './score-history.service.js';
import { ScoreReadingEntity } from './score-reading.entity.js';
import { ScoresController } from './scores.controller.js';
import { ScoresRepository } from './scores.repository.js';
import { ScoresService } from './scores.service.js';

/** Resilience and readiness scores, their history and the drift job (spec "Scores", docs/scores.md). */
@Module({
  imports: [TypeOrmModule.forFeature([ConnectionDriftEntity, ScoreReadingEntity]), ConnectionsModule],
  controllers: [ScoresController],
  providers: [
    ScoresService,
    ScoresRepository,
    ConnectionDriftJob,
    ConnectionDriftTimer,
    ScoreHistoryService,
    ScoreHistoryRepository,
    ScoreHistoryJob,
  ],
  exports: [ScoreHistoryJob, ScoresService],
})
export class ScoresModule {}
