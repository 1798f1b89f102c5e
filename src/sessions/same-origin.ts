/**
 * True when the request's `Origin` header names BASE_URL's origin exactly. Browsers send
 * `Origin` on every cross-origin request and on same-origin POST/PUT/PATCH/DELETE (Fetch
 * standard, "append a request `Origin` header"), so a cookie-carrying unsafe request without
 * it, or with another one, did not come from this service's own pages (CSRF; OWASP CSRF
 * Prevention Cheat Sheet, "Verifying Origin with standard headers").
 */
export function isSameOrigin(originHeader: string | string[] | undefined, baseUrl: string): boolean {
  return typeof originHeader === 'string' && originHeader === new URL(baseUrl).origin;
}

/** HTTP methods that change state (RFC 9110 §9.2.1 "safe" methods are the others). */
export function isUnsafeMethod(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}
