import type { INestApplication } from '@nestjs/common';
import { RequestLogMiddleware } from '@app/common/request-log/request-log.middleware.js';
import { HttpMetricsMiddleware } from '@app/platform/metrics/http-metrics.middleware.js';
import { MetricsService } from '@app/platform/metrics/metrics.service.js';

/**
 * Installs the request log line and the HTTP metrics (docs/operations.md) as plain Express middleware, ahead
 * of the request edge and every route, so a request refused there is counted too. Not Nest module
 * middleware: for every method Nest registers that as an Express route (`ALL /*path`), which
 * would stand for the route of a request no controller matched.
 */
export function installHttpObservers(app: INestApplication): void {
  app.use(new RequestLogMiddleware().use);
  app.use(new HttpMetricsMiddleware(app.get(MetricsService)).use);
}
