import type {
  BucketState,
  RateLimitSignal,
  ResponseHeaders,
} from '@libs/providers/kit/rate-limit-governor.js';
import { numberHeader, serverClockSkewMs } from '@libs/providers/kit/response-headers.js';
import { retryAfterSignal } from '@libs/providers/kit/retry-after.js';

/**
 * Reads Okta's `X-Rate-Limit-Limit`, `-Remaining` and `-Reset` headers (Okta "Rate limits":
 * reset is UTC epoch seconds). The reset is moved onto the local clock through the response's
 * `Date` header when present, as Okta's SDKs do, so a skewed local clock does not make us wait
 * too little or too long. Returns null when a header is missing or not a number.
 *
 * @param headers lower-case header names, as undici returns them.
 * @param localNowMs local epoch ms when the response arrived.
 */
export function parseRateLimitHeaders(headers: ResponseHeaders, localNowMs: number): BucketState | null {
  const limit = numberHeader(headers['x-rate-limit-limit']);
  const remaining = numberHeader(headers['x-rate-limit-remaining']);
  const reset = numberHeader(headers['x-rate-limit-reset']);
  if (limit === null || remaining === null || reset === null) return null;
  const skewMs = serverClockSkewMs(headers, localNowMs);
  return { limit, remaining, resetEpochSeconds: reset, resetAtMs: reset * 1000 + skewMs };
}

/**
 * Okta's rate-limit signals for the governor, in precedence order: its `X-Rate-Limit-*` window
 * (a 429 waits for the bucket's reset, as Okta's SDKs do), then a standard `Retry-After` should
 * an answer carry one without the window.
 */
export const OKTA_RATE_LIMIT_SIGNALS: readonly RateLimitSignal[] = [
  { window: parseRateLimitHeaders },
  retryAfterSignal,
];
