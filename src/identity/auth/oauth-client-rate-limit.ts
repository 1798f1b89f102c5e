import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { RATE_LIMIT_STORAGE } from '@app/common/rate-limit/rate-limit.storage.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';

/** Window of the budget, ms (the spec's Limits use 60 s windows too). */
const WINDOW_MS = 60_000;
/** Names the counter in the shared rate-limit storage. */
const RULE = 'oauth-clients';

/**
 * The per-IP budget of new OAuth clients: Dynamic Client Registrations (RFC 7591) and Client ID
 * Metadata Document fetches share OAUTH_CLIENT_RATE_LIMIT per minute. Both make the service
 * store or fetch something on an anonymous caller's word, hence a budget of their own. The
 * counters are the API limiter's (src/common/rate-limit: memory, or Redis shared by replicas),
 * because oidc-provider serves these endpoints outside Nest's guards. RATE_LIMITS=off turns
 * it off with the others; a failing counter store lets requests through, as the API's does.
 */
@Injectable()
export class OAuthClientRateLimit {
  private readonly logger = new Logger(OAuthClientRateLimit.name);

  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Spends one unit of `clientIp`'s budget.
   * @returns 0 when allowed; else the seconds until the window ends (for `Retry-After`).
   */
  async take(clientIp: string): Promise<number> {
    if (this.config.RATE_LIMITS === 'off') return 0;
    const limit = this.config.OAUTH_CLIENT_RATE_LIMIT;
    try {
      const record = await this.storage.increment(`${RULE}:${clientIp}`, WINDOW_MS, limit, WINDOW_MS, RULE);
      return record.isBlocked ? record.timeToBlockExpire : 0;
    } catch (error) {
      this.logger.error(
        `OAuth client budget not enforced, the counter storage failed: ${(error as Error).message}`,
      );
      return 0;
    }
  }
}
