/** Longest return path kept, characters. */
export const MAX_RETURN_LENGTH = 2048;

/**
 * `value` when it is a path on this service (path and query, resolved against `baseUrl`), else
 * `/`. Refuses absolute URLs, scheme-relative `//host` and the `/\host` spelling browsers read
 * as one, so a sign-in link can never send the person elsewhere (open redirect, OWASP
 * Unvalidated Redirects Cheat Sheet).
 */
export function localPath(value: unknown, baseUrl: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > MAX_RETURN_LENGTH) return '/';
  const base = new URL(baseUrl);
  const url = new URL(value, base);
  return url.origin === base.origin ? `${url.pathname}${url.search}` : '/';
}
