import type { IncomingHttpHeaders } from 'node:http';

/** The settings that decide which origins a cookie-carrying request may come from. */
export interface TrustedOrigins {
  /** The service's own origin (its sign-in and consent pages). */
  BASE_URL: string;
  /** The admin console's exact origins (DESIGN section 9, docs/security.md "The console"). */
  CONSOLE_ORIGINS: readonly string[];
}

/**
 * True when the request's `Origin` header names BASE_URL's origin or one of CONSOLE_ORIGINS,
 * exactly. Browsers send `Origin` on every cross-origin request and on same-origin
 * POST/PUT/PATCH/DELETE (Fetch standard, "append a request `Origin` header"), so a
 * cookie-carrying unsafe request without it, or with another one, came neither from this
 * service's own pages nor from its console (CSRF; OWASP CSRF Prevention Cheat Sheet,
 * "Verifying Origin with standard headers").
 */
export function isTrustedOrigin(
  originHeader: string | string[] | undefined,
  trusted: TrustedOrigins,
): boolean {
  if (typeof originHeader !== 'string') return false;
  return originHeader === new URL(trusted.BASE_URL).origin || trusted.CONSOLE_ORIGINS.includes(originHeader);
}

/** The message of the 403 that refuses a cookie-carrying request from an untrusted origin. */
export const UNTRUSTED_ORIGIN_MESSAGE =
  'Cross-origin request refused: the Origin header must be this service or an allowed console origin';

/**
 * True when the request rides on the session cookie (no `Authorization` header: the cookie
 * strategy is asked only then) and the browser says another site started it
 * (`Sec-Fetch-Site: cross-site`, W3C Fetch Metadata Request Headers §2.1). `same-site` (the
 * console on a sibling host) and `same-origin` pass, and so does `none` (typed in the address
 * bar, a bookmark).
 */
export function isCrossSiteCookieRequest(headers: IncomingHttpHeaders): boolean {
  return headers.authorization === undefined && headers['sec-fetch-site'] === 'cross-site';
}

/** HTTP methods that change state (RFC 9110 §9.2.1 "safe" methods are the others). */
export function isUnsafeMethod(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}
