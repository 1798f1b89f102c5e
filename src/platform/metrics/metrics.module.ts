import { Module } from '@nestjs/common';
import { ConnectionsModule } from '@app/connections/connections.module.js';
import { MetricsRepository } from './metrics.repository.js';
import { MetricsServer } from './metrics.server.js';
import { MetricsService } from './metrics.service.js';

/**
 * Prometheus metrics (docs/operations.md): HTTP requests (HttpMetricsMiddleware, installed by
 * src/platform/bootstrap/http-observers.ts), backup and restore runs, the provider's 429s by bucket, the job
 * queue, last backups.
 */
@Module({ imports: [ConnectionsModule], providers: [MetricsService, MetricsRepository, MetricsServer] })
export class MetricsModule {}
