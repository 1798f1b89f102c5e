import type { components } from './schema';

/** The API's error body (spec "Errors"). */
export type ErrorBody = components['schemas']['Error'];

/** A failed API call: the HTTP status, the error body, and `Retry-After` in seconds when given. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly retryAfterSeconds: number | null,
  ) {
    super(body.error);
    this.name = 'ApiError';
  }

  /** The messages of `details` keyed by field name (validation_failed answers). */
  fieldErrors(): Record<string, string> {
    const details = Array.isArray(this.body.details) ? this.body.details : [];
    return Object.fromEntries(details.map((detail) => [detail.field, detail.message]));
  }
}

/**
 * `Retry-After` as seconds (RFC 9110 section 10.2.3: delay-seconds or an HTTP-date), null when
 * absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
