/**
 * For specs: Okta's rate-limit headers of one answer (Okta "Rate limits"): `limit` and `remaining`
 * requests, the window's end `resetAtMs` as UTC epoch seconds, and the answer's `Date` when given
 * (epoch ms).
 */
export function oktaRateLimitHeaders(
  limit: number,
  remaining: number,
  resetAtMs: number,
  dateMs?: number,
): Record<string, string> {
  return {
    'x-rate-limit-limit': String(limit),
    'x-rate-limit-remaining': String(remaining),
    'x-rate-limit-reset': String(Math.floor(resetAtMs / 1000)),
    ...(dateMs === undefined ? {} : { date: new Date(dateMs).toUTCString() }),
  };
}
