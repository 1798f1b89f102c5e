import type { ResponseHeaders } from './rate-limit-governor.js';

/** The first value of a header that may be repeated; undefined when absent. */
export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A header holding a finite number, or null when absent, blank or not a number. */
export function numberHeader(value: string | string[] | undefined): number | null {
  const text = firstHeader(value);
  if (text === undefined || text.trim() === '') return null;
  const number = Number(text);
  return Number.isFinite(number) ? number : null;
}

/**
 * How far the local clock runs ahead of the server's, ms (negative when behind), from the
 * response's `Date` header (RFC 9110 §6.6.1); 0 when the header is absent or unreadable. Used to
 * move instants the server names (a reset, a retry date) onto the local clock, as Okta's SDKs do.
 */
export function serverClockSkewMs(headers: ResponseHeaders, localNowMs: number): number {
  const serverNowMs = Date.parse(firstHeader(headers['date']) ?? '');
  return Number.isNaN(serverNowMs) ? 0 : localNowMs - serverNowMs;
}
