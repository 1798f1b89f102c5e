import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { requestIdFrom } from './request-id.js';

/**
 * One log line per request Nest routes (docs/operations.md): method, route template (`unmatched` when no
 * route matched), status, duration in milliseconds and request id, as structured fields (at the
 * root of the JSON object under LOG_FORMAT=json). The request id is the caller's X-Request-Id when
 * it is a plain token, else a new UUID; it is put back on the request, so the auth guard, the audit
 * trail and the error body use the same one, and sent back in the X-Request-Id header. The path,
 * query and headers are not logged (a query may carry a token). Express middleware ahead of
 * every route (src/platform/bootstrap/http-observers.ts).
 */
export class RequestLogMiddleware {
  private readonly logger = new Logger('HTTP');

  readonly use = (req: Request, res: Response, next: NextFunction): void => {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    req.headers['x-request-id'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const path = (req.route as { path?: unknown } | undefined)?.path;
      const route = typeof path === 'string' ? path : 'unmatched';
      const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      this.logger.log(`${req.method} ${route} ${res.statusCode} ${durationMs} ms`, {
        method: req.method,
        route,
        status: res.statusCode,
        duration_ms: durationMs,
        request_id: requestId,
      });
    });
    next();
  };
}
