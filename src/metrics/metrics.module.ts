import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { HttpMetricsMiddleware } from './http-metrics.middleware.js';
import { MetricsRepository } from './metrics.repository.js';
import { MetricsServer } from './metrics.server.js';
import { MetricsService } from './metrics.service.js';

/** Prometheus metrics (issue 34): HTTP, backup and restore runs, the job queue, last backups. */
@Module({ providers: [MetricsService, MetricsRepository, MetricsServer] })
export class MetricsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes({ path: '*path', method: RequestMethod.ALL });
  }
}
