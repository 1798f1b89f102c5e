/**
 * Cookies of the `__Host-` kind (RFC 6265bis §4.1.3.2): Secure, Path=/ and no Domain, so only
 * this exact origin over HTTPS can set or read them; HttpOnly (no script access) and
 * SameSite=Lax (sent on top-level navigations, e.g. an identity provider's redirect back, but
 * not on cross-site POSTs). Spec "Authentication" items 6 and 7.
 */

/** Characters a value may hold without quoting (RFC 6265 cookie-octet, minus the ones we never use). */
const COOKIE_VALUE = /^[A-Za-z0-9._~-]*$/;

/**
 * A `Set-Cookie` header value.
 * @param maxAgeSeconds lifetime; 0 deletes the cookie.
 * @throws RangeError when `value` holds characters outside base64url and `.` (never from our own values).
 */
export function hostCookie(name: string, value: string, maxAgeSeconds: number): string {
  if (!name.startsWith('__Host-') || !COOKIE_VALUE.test(value)) throw new RangeError(`Unsafe cookie ${name}`);
  return `${name}=${value}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; Path=/; Secure; HttpOnly; SameSite=Lax`;
}

/** The `Set-Cookie` header value that deletes the cookie. */
export function clearHostCookie(name: string): string {
  return hostCookie(name, '', 0);
}

/** The value of cookie `name` in a `Cookie` request header; the first one when repeated. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator !== -1 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}
