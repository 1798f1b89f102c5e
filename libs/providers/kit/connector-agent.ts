import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
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
 * Secure contexts by the extra CA's PEM, the latest few: a service trusts one extra CA at most,
 * while a test process starts many simulators, each with its own.
 */
const secureContexts = new Map<string, SecureContext>();
const KEPT_SECURE_CONTEXTS = 4;

/**
 * Node's bundled roots and `caCertPem`, as one secure context made once per CA. Given `ca`
 * instead, every TLS connection parsed the ~145 roots again, about 23 ms of CPU a connection on
 * this machine (bench:api's profile: 7 % of the service's CPU during a backup).
 */
function trustingAlso(caCertPem: string): SecureContext {
  let context = secureContexts.get(caCertPem);
  if (!context) {
    context = createSecureContext({ ca: [...rootCertificates, caCertPem] });
    if (secureContexts.size >= KEPT_SECURE_CONTEXTS)
      secureContexts.delete(secureContexts.keys().next().value!);
    secureContexts.set(caCertPem, context);
  }
  return context;
}

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
    connect: options.caCertPem ? { secureContext: trustingAlso(options.caCertPem) } : undefined,
    connections: options.connections,
    keepAliveTimeout: CONNECTOR_DEFAULTS.keepAliveTimeoutMs,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
}
