import { type CanActivate, type ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { RateLimitedError } from '@app/common/errors.js';
import { resolveClientIp } from './client-ip.js';
import { advertiseQuota } from './rate-limit.headers.js';
import { RATE_LIMIT_RULES, RATE_LIMIT_WINDOW_MS } from './rate-limit.rules.js';
import { RATE_LIMIT_STORAGE } from './rate-limit.storage.js';

/** At most one log line per this many ms while the storage fails. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * The global rate-limit guard (spec "Limits", docs/security.md "Rate limits"). Each request
 * spends one unit from every rule of RATE_LIMIT_RULES that covers its route, in that rule's
 * budget for the client IP (client-ip.ts); counters are a @nestjs/throttler `ThrottlerStorage`.
 * Registered ahead of the auth guard, so unauthenticated floods and token guessing are limited
 * too. RATE_LIMITS=off disables it (test suites only).
 *
 * Over a limit: 429 `rate_limited` in the error shape with `Retry-After` (RFC 9110 §10.2.3,
 * seconds until the window ends). If the storage fails (Redis unreachable), the request goes
 * through and the failure is logged: an outage of the limiter must not become an outage of the API.
 *
 * Why not @nestjs/throttler's own ThrottlerGuard: 6.7 is CommonJS and requires @nestjs/common
 * 12, which is ESM-only; Node ≥ 20.19 loads that, but Jest's ESM runtime cannot, so the guard
 * could never run under test. Its storage contract and IP normalization are kept.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly logger = new Logger(RateLimitGuard.name);
  private lastFailureLog = 0;

  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.config.RATE_LIMITS === 'off') return true;
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const rules = RATE_LIMIT_RULES.filter((rule) =>
      rule.appliesTo(req.method.toUpperCase(), routePattern(req)),
    );
    if (rules.length === 0) return true;

    const ip = resolveClientIp(
      req.socket.remoteAddress,
      req.headers['x-forwarded-for'],
      this.config.TRUST_PROXY_HOPS,
    );
    let counted;
    try {
      counted = await Promise.all(
        rules.map(async (rule) => ({
          rule,
          record: await this.storage.increment(
            `${rule.name}:${ip}`,
            RATE_LIMIT_WINDOW_MS,
            rule.limit,
            RATE_LIMIT_WINDOW_MS,
            rule.name,
          ),
        })),
      );
    } catch (error) {
      this.logFailure(error);
      return true;
    }

    const res = http.getResponse<Response>();
    for (const { rule, record } of counted) {
      advertiseQuota(res, {
        limit: rule.limit,
        windowSeconds: RATE_LIMIT_WINDOW_MS / 1000,
        remaining: Math.max(0, rule.limit - record.totalHits),
        resetSeconds: record.timeToExpire,
      });
    }
    const retryAfter = Math.max(
      0,
      ...counted.map(({ record }) => (record.isBlocked ? record.timeToBlockExpire : 0)),
    );
    if (retryAfter > 0) throw new RateLimitedError(retryAfter);
    return true;
  }

  private logFailure(error: unknown): void {
    if (Date.now() - this.lastFailureLog < FAILURE_LOG_INTERVAL_MS) return;
    this.lastFailureLog = Date.now();
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.error(`Rate limits not enforced, the counter storage failed: ${reason}`);
  }
}

/**
 * The matched route's pattern as declared (`/api/connections/:id`), so case, trailing slashes
 * and encodings of the request path cannot dodge a rule; the path itself when there is none.
 */
function routePattern(req: Request): string {
  const pattern: unknown = (req.route as { path?: unknown } | undefined)?.path;
  return typeof pattern === 'string' ? pattern : req.path;
}
