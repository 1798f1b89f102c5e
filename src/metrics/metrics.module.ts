import { Module } from '@nestjs/common';
import { MetricsRepository } from './metrics.repository.js';
import { MetricsServer } from './metrics.server.js';
import { MetricsService } from './metrics.service.js';

/**
 * Prometheus metrics (issue 34): HTTP requests (HttpMetricsMiddleware, installed by
 * src/bootstrap/http-observers.ts), backup and restore runs, the job queue, last backups.
 */
@Module({ providers: [MetricsService, MetricsRepository, MetricsServer] })
export class MetricsModule {}
