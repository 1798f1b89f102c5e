import { isIP } from 'node:net';
import { ProviderHostNotAllowedError } from '@libs/providers/provider-errors.js';

/**
 * Whether `host` is on the allow-list `patterns` (the SSRF guard's host rule).
 *
 * - `host` and patterns may carry a port (`acme.okta.com:443`, `[::1]:8443`); ports are ignored,
 *   because the guard also pins the whole origin (see `assertProviderUrl`).
 * - Comparison is case-insensitive and ignores one trailing dot (`acme.okta.com.`), as DNS does.
 * - `*.okta.com` matches any subdomain (`acme.okta.com`, `a.b.okta.com`) but never `okta.com`
 *   itself, `evilokta.com` or `okta.com.evil.io`: the host must end with `.okta.com`.
 * - IP literals (v4 or v6) match only a pattern that is the same literal; wildcards never match
 *   an IP. A pattern with `*` anywhere but a leading `*.` matches nothing.
 */
export function isAllowedHost(host: string, patterns: readonly string[]): boolean {
  const candidate = normalizeHost(host);
  if (candidate === '') return false;
  const candidateIsIp = isIP(candidate) !== 0;
  return patterns.some((raw) => {
    const pattern = normalizeHost(raw);
    if (pattern.startsWith('*.')) {
      const suffix = pattern.slice(2);
      if (candidateIsIp || suffix === '' || suffix.includes('*') || isIP(suffix) !== 0) return false;
      return candidate.endsWith(`.${suffix}`) && !candidate.startsWith('.');
    }
    return !pattern.includes('*') && pattern === candidate;
  });
}

/**
 * SSRF guard for every URL a connector requests (token, API, each next-page link): https only,
 * host allowed by `allowedHosts` (the provider's own list, e.g. `*.okta.com`), and the exact
 * `origin` of the tenant (so a next-page link pointing at another host, port or scheme is
 * refused even when that host is allowed).
 *
 * @throws ProviderHostNotAllowedError naming the refused host (or scheme).
 */
export function assertProviderUrl(url: URL, origin: string, allowedHosts: readonly string[]): void {
  if (url.protocol !== 'https:') throw new ProviderHostNotAllowedError(`${url.protocol}//${url.host}`);
  if (!isAllowedHost(url.host, allowedHosts)) throw new ProviderHostNotAllowedError(url.host);
  if (url.origin !== origin) throw new ProviderHostNotAllowedError(url.host);
}

/** Lower-cased host without port, IPv6 brackets or trailing dot; '' when unparseable. */
function normalizeHost(value: string): string {
  let host = value.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    host = end === -1 ? '' : host.slice(1, end);
  } else if (host.split(':').length === 2) {
    // One colon is host:port; more than one is a bare IPv6 literal.
    host = host.slice(0, host.indexOf(':'));
  }
  return host.endsWith('.') ? host.slice(0, -1) : host;
}
