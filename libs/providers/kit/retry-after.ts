import type { RateLimitSignal, ResponseHeaders } from './rate-limit-governor.js';
import { firstHeader, serverClockSkewMs } from './response-headers.js';

/** `delay-seconds`, a non-negative integer (RFC 9110 §10.2.3), or a decimal as Graph sends ("2.128"). */
const DELAY_SECONDS = /^\d+(\.\d+)?$/;
/** IMF-fixdate and the obsolete RFC 850 form, which recipients must accept (RFC 9110 §5.6.7). */
const ZONED_DATE = /^[A-Za-z]{3,9}, \d{2}[ -][A-Za-z]{3}[ -]\d{2,4} \d{2}:\d{2}:\d{2} GMT$/;
/** ANSI C's asctime() form, also to be accepted (§5.6.7); it is GMT without saying so. */
const ASCTIME_DATE = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/**
 * When a `Retry-After` value says to send again, local epoch ms (RFC 9110 §10.2.3): either
 * `delay-seconds` after the answer arrived (fractional seconds accepted, as Microsoft Graph sends
 * them: "Retry-After: 2.128"), or an HTTP-date in any of the three forms of §5.6.7, moved onto
 * the local clock through the answer's `Date` header. Null when absent or unreadable (a negative
 * number, a date in another format), so the caller falls back to its own backoff.
 *
 * @param headers lower-case names, as undici returns them.
 * @param localNowMs local epoch ms when the answer arrived.
 */
export function parseRetryAfter(headers: ResponseHeaders, localNowMs: number): number | null {
  const value = firstHeader(headers['retry-after'])?.trim();
  if (value === undefined || value === '') return null;
  if (DELAY_SECONDS.test(value)) return localNowMs + Math.round(Number(value) * 1000);
  const asctime = ASCTIME_DATE.test(value);
  if (!asctime && !ZONED_DATE.test(value)) return null;
  const atMs = Date.parse(asctime ? `${value} GMT` : value);
  return Number.isNaN(atMs) ? null : atMs + serverClockSkewMs(headers, localNowMs);
}

/** The standard `Retry-After` header as a rate-limit signal (parseRetryAfter). */
export const retryAfterSignal: RateLimitSignal = { retryAt: parseRetryAfter };
