import type { LookupFunction } from 'node:net';

/** `fetch` as oidc-provider and openid-client call it. */
export type OutboundFetch = (url: string, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` with its own connection pool: trusting `ca` when given (else Node's roots), and
 * resolving host names through `lookup` when given (the SSRF guard of client metadata
 * documents pins each connection to an address it has checked). Any dispatcher the caller
 * passes is replaced by this one. undici and the pool are set up at the first call, not at boot:
 * most processes never make one.
 */
export function createOutboundFetch(options: { ca?: string[]; lookup?: LookupFunction } = {}): OutboundFetch {
  let ready: Promise<OutboundFetch> | undefined;
  return async (url, init) => {
    ready ??= import('undici').then(({ Agent, fetch: undiciFetch }) => {
      const dispatcher = new Agent({
        connect: {
          ...(options.ca ? { ca: options.ca } : {}),
          ...(options.lookup ? { lookup: options.lookup } : {}),
        },
      });
      return (target, request) =>
        undiciFetch(target, { ...(request as object), dispatcher } as Parameters<
          typeof undiciFetch
        >[1]) as unknown as Promise<Response>;
    });
    return (await ready)(url, init);
  };
}
