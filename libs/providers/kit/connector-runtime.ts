import type { Agent } from 'undici';

import type { ConnectorStats } from '@libs/providers/provider-connector.js';
import { ProviderError, ProviderHostNotAllowedError } from '@libs/providers/provider-errors.js';
import { isAllowedHost } from './allowed-hosts.js';
import { type ClientCredentialsOptions, ClientCredentialsTokenSource } from './client-credentials.js';
import { connectorAgent, CONNECTOR_DEFAULTS } from './connector-agent.js';
import { ConnectorStatsRecorder } from './connector-stats.js';
import { HttpTransport } from './http-transport.js';
import { RateLimitGovernor, type RateLimitGovernorOptions } from './rate-limit-governor.js';

/** What a connector runs on: its provider's origins and pacing, and the operator's limits. */
export interface ConnectorRuntimeOptions {
  /** The provider's display name for messages, e.g. `Okta`, `Microsoft Graph`. */
  provider: string;
  /** The tenant's https origins (httpsOrigin): each host must be allowed, before any request. */
  origins: readonly string[];
  /** Host patterns that may be called (isAllowedHost), e.g. `['*.okta.com']`. */
  allowedHosts: readonly string[];
  /** A PEM CA to trust besides Node's bundled roots (a private CA, the test simulators'). */
  caCertPem?: string;
  userAgent: string;
  /** The provider's rate-limit signals, and its unit budget, paces and quotas, if any (RateLimitGovernor). */
  pacing: Pick<
    RateLimitGovernorOptions,
    'signals' | 'budget' | 'spacing' | 'quotas' | 'bucketOf' | 'windowMs'
  >;
  /** Requests in flight at once, and sockets in the pool, >= 1; default CONNECTOR_DEFAULTS. */
  maxConcurrency?: number;
  /** Share of each rate-limit bucket left free for the tenant's own tools, 0 <= h < 1. */
  headroom?: number;
  /**
   * The least share of a bucket left free while no one else is seen using it in its window,
   * 0 <= idleHeadroom <= headroom (RateLimitGovernor); default `headroom`.
   */
  idleHeadroom?: number;
  /** Attempts per request on 429, 5xx and dropped connections, the first included, >= 1. */
  maxAttempts?: number;
  /** First backoff step for 5xx and dropped connections, ms, doubling per attempt, >= 0. */
  retryBaseDelayMs?: number;
  /** Longest wait for response headers, then for each body chunk, ms, >= 1. */
  requestTimeoutMs?: number;
}

/**
 * The machinery every connector sends its requests through: one connection pool (connectorAgent),
 * one rate-limit governor and one stats recorder per connector, and an HttpTransport (the SSRF
 * guard pins one origin) per origin it calls, all sharing them. Option checks are made here, once
 * for every provider.
 *
 * @throws ProviderHostNotAllowedError when an origin's host is not allowed; ProviderError
 *   `invalid_connector_options` for an out-of-range number: from the constructor, before any request
 */
export class ConnectorRuntime {
  /** Requests in flight at once: what a connector's collection lanes should not exceed. */
  readonly maxConcurrency: number;
  private readonly agent: Agent;
  private readonly governor: RateLimitGovernor;
  private readonly recorder = new ConnectorStatsRecorder();

  constructor(private readonly options: ConnectorRuntimeOptions) {
    for (const origin of options.origins) {
      const host = new URL(origin).host;
      if (!isAllowedHost(host, options.allowedHosts)) throw new ProviderHostNotAllowedError(host);
    }
    this.maxConcurrency = integerOption('maxConcurrency', options.maxConcurrency, 1);
    const headroom = options.headroom ?? CONNECTOR_DEFAULTS.headroom;
    if (!(headroom >= 0 && headroom < 1)) throw invalidOption('headroom must be at least 0 and below 1');
    const idleHeadroom = options.idleHeadroom ?? headroom;
    if (!(idleHeadroom >= 0 && idleHeadroom <= headroom))
      throw invalidOption('idleHeadroom must be at least 0 and at most headroom');
    const timeoutMs = integerOption('requestTimeoutMs', options.requestTimeoutMs, 1);
    this.agent = connectorAgent({
      caCertPem: options.caCertPem,
      connections: this.maxConcurrency,
      timeoutMs,
    });
    this.governor = new RateLimitGovernor({
      ...options.pacing,
      maxConcurrency: this.maxConcurrency,
      headroom,
      idleHeadroom,
      maxAttempts: integerOption('maxAttempts', options.maxAttempts, 1),
      baseDelayMs: integerOption('retryBaseDelayMs', options.retryBaseDelayMs, 0),
      maxDelayMs: CONNECTOR_DEFAULTS.retryMaxDelayMs,
      resetJitterMs: CONNECTOR_DEFAULTS.resetJitterMs,
    });
  }

  /** A transport to `origin` (one of `origins`, or another allowed host's) on the shared pool and governor. */
  transport(origin: string): HttpTransport {
    return new HttpTransport({
      provider: this.options.provider,
      origin,
      allowedHosts: [...this.options.allowedHosts],
      dispatcher: this.agent,
      governor: this.governor,
      stats: this.recorder,
      userAgent: this.options.userAgent,
    });
  }

  /** Access tokens of the client credentials grant from the token endpoint at `origin`. */
  tokenSource(origin: string, options: ClientCredentialsOptions): ClientCredentialsTokenSource {
    return new ClientCredentialsTokenSource(this.transport(origin), options);
  }

  stats(): ConnectorStats {
    return this.recorder.snapshot();
  }

  /** Destroys the connection pool, aborting requests still in flight. */
  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

/**
 * The origin of `url`, which must be `https://host[:port]` with at most a trailing `/`: no path,
 * query, fragment or credentials. The message is the caller's, and never echoes the URL, which
 * could carry credentials.
 * @throws ProviderError `invalid_org_url` with `message`
 */
export function httpsOrigin(url: string, message: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    parsed = new URL('about:blank');
  }
  if (parsed.protocol !== 'https:' || parsed.pathname !== '/' || /[?#@]/.test(url))
    throw new ProviderError(message, 'invalid_org_url');
  return parsed.origin;
}

type NumericOption = 'maxConcurrency' | 'maxAttempts' | 'retryBaseDelayMs' | 'requestTimeoutMs';

/** `value`, or the connectors' default, checked to be an integer of at least `min`. */
function integerOption(name: NumericOption, value: number | undefined, min: number): number {
  const chosen = value ?? CONNECTOR_DEFAULTS[name];
  if (!Number.isInteger(chosen) || chosen < min)
    throw invalidOption(`${name} must be an integer of at least ${min}`);
  return chosen;
}

function invalidOption(message: string): ProviderError {
  return new ProviderError(message, 'invalid_connector_options');
}
