import type { NextFunction, Request, Response } from 'express';
import { MetricsService } from './metrics.service.js';

/**
 * Times every request Nest routes and counts it by route template (`/api/backup/:id`, so ids do
 * not make a label value each); a request no route matched counts as `unmatched`. Express
 * middleware ahead of every route (src/platform/bootstrap/http-observers.ts).
 */
export class HttpMetricsMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  readonly use = (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = (req.route as { path?: unknown } | undefined)?.path;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.metrics.observeRequest(
        req.method,
        typeof route === 'string' ? route : 'unmatched',
        res.statusCode,
        seconds,
      );
    });
    next();
  };
}
