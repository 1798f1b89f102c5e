import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface.js';
import type { TrustedOrigins } from '@app/identity/sessions/same-origin.js';

/**
 * Response headers the console reads, beyond the CORS-safelisted ones (Fetch standard, "CORS-
 * safelisted response-header name"): the rate limits' `Retry-After` and `RateLimit-*`
 * (draft-ietf-httpapi-ratelimit-headers), the pending deletion's `X-Account-Deletion`, the
 * request id, a download's file name, the answer to `Prefer: respond-async` and the 401's
 * challenge. The API pages in its bodies (`total`, cursors), so it sets no paging header.
 */
export const EXPOSED_HEADERS = [
  'Retry-After',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'X-Account-Deletion',
  'X-Request-Id',
  'Content-Disposition',
  'Preference-Applied',
  'WWW-Authenticate',
] as const;

/** Request headers the console may send beyond the safelisted ones (`Accept` is safelisted). */
export const ALLOWED_HEADERS = ['Content-Type', 'Prefer', 'X-Request-Id'] as const;

/** Methods the API answers. */
export const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * How long a browser may reuse a preflight's answer, seconds: Chromium's ceiling (two hours;
 * Firefox allows a day), so a console session preflights each route at most every two hours.
 */
export const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/**
 * CORS for the admin console served on its own origin (DESIGN section 9), through the `cors`
 * middleware that Nest's `enableCors` wraps: an origin of CONSOLE_ORIGINS, compared exactly,
 * gets `Access-Control-Allow-Origin` naming it, `Access-Control-Allow-Credentials: true` (the
 * session cookie) and `Vary: Origin`; its preflight is answered 204 right here, before the rate
 * limits and authentication (guards) could refuse it. Any other origin gets no CORS header at
 * all (the middleware steps aside), so a browser keeps its scripts from reading the answer.
 * BASE_URL's own pages are same-origin and need none.
 */
export function consoleCorsOptions(trusted: Pick<TrustedOrigins, 'CONSOLE_ORIGINS'>): CorsOptions {
  const allowed = new Set(trusted.CONSOLE_ORIGINS);
  return {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    credentials: true,
    methods: [...ALLOWED_METHODS],
    allowedHeaders: [...ALLOWED_HEADERS],
    exposedHeaders: [...EXPOSED_HEADERS],
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    preflightContinue: false,
    optionsSuccessStatus: 204,
  };
}
