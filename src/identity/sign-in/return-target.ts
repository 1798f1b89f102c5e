import type { TrustedOrigins } from '@app/identity/sessions/same-origin.js';
import { localPath, MAX_RETURN_LENGTH } from './local-path.js';

/**
 * Where a finished sign-in sends the browser: `value` when it is a path on this service (see
 * {@link localPath}) or an absolute http(s) URL on one of CONSOLE_ORIGINS exactly (the admin
 * console signs in through this service from its own origin, docs/console.md); anything else
 * becomes `/`, so a sign-in link can never send the person to another site (open redirect,
 * OWASP Unvalidated Redirects and Forwards Cheat Sheet: "allow-list of trusted destinations").
 * Credentials in the URL (`user:pass@`) are refused too.
 */
export function returnTarget(value: unknown, trusted: TrustedOrigins): string {
  const url = consoleUrl(value);
  if (url && trusted.CONSOLE_ORIGINS.includes(url.origin)) return url.href;
  return localPath(value, trusted.BASE_URL);
}

function consoleUrl(value: unknown): URL | null {
  if (typeof value !== 'string' || value.length > MAX_RETURN_LENGTH || !URL.canParse(value)) return null;
  const url = new URL(value);
  const web = url.protocol === 'https:' || url.protocol === 'http:';
  return web && !url.username && !url.password ? url : null;
}
