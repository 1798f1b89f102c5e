import type { LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';

/** `fetch` as oidc-provider and openid-client call it. */
export type OutboundFetch = (url: string, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` with its own connection pool: trusting `ca` when given (else Node's roots), and
 * resolving host names through `lookup` when given (the SSRF guard of client metadata
 * documents pins each connection to an address it has checked). Any dispatcher the caller
 * passes is replaced by this one.
 */
export function createOutboundFetch(options: { ca?: string[]; lookup?: LookupFunction } = {}): OutboundFetch {
  const dispatcher = new Agent({
    connect: {
      ...(options.ca ? { ca: options.ca } : {}),
      ...(options.lookup ? { lookup: options.lookup } : {}),
    },
  });
  return (url, init) =>
    undiciFetch(url, { ...(init as object), dispatcher } as Parameters<
      typeof undiciFetch
    >[1]) as unknown as Promise<Response>;
}
