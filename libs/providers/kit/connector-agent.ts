import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';

/** Defaults every connector shares: requests in flight, headroom, retries and timeouts (ms). */
export const CONNECTOR_DEFAULTS = {
  maxConcurrency: 4,
  headroom: 0.2,
  maxAttempts: 5,
  retryBaseDelayMs: 500,
  retryMaxDelayMs: 30_000,
  resetJitterMs: 1000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 30_000,
} as const;

/**
 * A connector's connection pool: `connections` sockets at most, `timeoutMs` for response headers
 * and then for each body chunk, and, with `caCertPem`, that CA trusted besides Node's bundled
 * roots (Node's `ca` replaces the roots, so they are passed along: a custom CA, the simulator's,
 * adds trust without taking away the public CAs that sign the providers' hosts).
 */
export function connectorAgent(options: {
  caCertPem?: string;
  connections: number;
  timeoutMs: number;
}): Agent {
  return new Agent({
    connect: options.caCertPem ? { ca: [...rootCertificates, options.caCertPem] } : undefined,
    connections: options.connections,
    keepAliveTimeout: CONNECTOR_DEFAULTS.keepAliveTimeoutMs,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
}
