import type { Response } from 'express';

/** One limit's state after counting a request, in the units of the RateLimit fields. */
export interface QuotaState {
  limit: number;
  windowSeconds: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

/**
 * Advertises a limit with the fields of draft-ietf-httpapi-ratelimit-headers-06 (section 5):
 * `RateLimit-Policy` lists every limit applied to the request (`<limit>;w=<seconds>`), and
 * `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (delta seconds) describe the one
 * closest to exhaustion, as that draft asks when several apply. Called once per limit.
 */
export function advertiseQuota(res: Response, quota: QuotaState): void {
  const policy = `${quota.limit};w=${quota.windowSeconds}`;
  const policies = res.getHeader('RateLimit-Policy');
  res.setHeader('RateLimit-Policy', policies === undefined ? policy : `${String(policies)}, ${policy}`);
  const shown = res.getHeader('RateLimit-Remaining');
  if (shown !== undefined && Number(shown) <= quota.remaining) return;
  res.setHeader('RateLimit-Limit', quota.limit);
  res.setHeader('RateLimit-Remaining', quota.remaining);
  res.setHeader('RateLimit-Reset', quota.resetSeconds);
}
