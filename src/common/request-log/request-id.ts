import { randomUUID } from 'node:crypto';

/** A caller's request id is kept when it is a plain token of at most 128 characters. */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request id for a request: the caller's `X-Request-Id` header when it matches
 * `REQUEST_ID`, else a new UUID (v4).
 */
export function requestIdFrom(given: string | string[] | undefined): string {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}
