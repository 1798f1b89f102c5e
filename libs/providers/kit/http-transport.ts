import { request, type Dispatcher } from 'undici';
import { assertProviderUrl } from './allowed-hosts.js';
import type { ConnectorStatsRecorder } from './connector-stats.js';
import { classifyNetworkError } from './network-errors.js';
import type { RateLimitGovernor } from './rate-limit-governor.js';

/** One logical request; the transport may send it several times. */
export interface TransportRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: URL;
  /** Path template naming the endpoint and its rate-limit bucket, e.g. `/api/v1/groups/{groupId}/users`. */
  template: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * Safe to send again after a dropped connection or a 5xx (GETs, PUTs and DELETEs, the
   * client_credentials grant; RFC 9110 §9.2.2), not creations.
   */
  idempotent: boolean;
  /** What the request costs against the governor's unit budget, when known better than its bucket's last answer (a batch). */
  units?: number;
  signal?: AbortSignal;
}

export interface TransportResponse {
  status: number;
  /** Lower-case names; repeated headers (such as `link`) as arrays. */
  headers: Record<string, string | string[] | undefined>;
  /** The body as received. */
  bytes: Uint8Array<ArrayBuffer>;
  /** The body as UTF-8 text, decoded on first read. */
  readonly body: string;
}

const UTF8 = new TextDecoder();

/** Statuses worth another attempt: the server or a gateway failed, not the request. */
const RETRYABLE_STATUSES = new Set([500, 502, 503, 504]);

/**
 * 429s one request may meet and still be sent again: each waits for the bucket's reset (a minute
 * at most on Okta), so a request gives up after ten windows spent by others.
 */
const MAX_THROTTLED_RETRIES = 10;

/**
 * Sends requests to one tenant of a provider (an Okta org, a Graph tenant) through the SSRF
 * guard, the rate-limit governor and the retry rules, counting every attempt in the stats:
 * - 429: retried when the governor's signals say (Okta: the bucket's `X-Rate-Limit-Reset`;
 *   standard `Retry-After`), else with backoff;
 * - 500/502/503/504 and transient network errors: retried, idempotent requests only, after the
 *   answer's `Retry-After` or with backoff;
 * - the last answer is returned as is once attempts are spent (callers turn it into an error).
 * Redirects are not followed (undici's `request` does not), so a 3xx cannot lead off the tenant.
 *
 * @throws ProviderHostNotAllowedError before sending when the URL fails the guard;
 *   ProviderError `provider_unreachable` when no HTTP answer came after the allowed attempts;
 *   the signal's reason when aborted.
 */
export class HttpTransport {
  constructor(
    private readonly options: {
      /** The provider's display name for messages, e.g. `Okta`. */
      provider: string;
      /** The tenant's https origin; every URL must have it (assertProviderUrl). */
      origin: string;
      /** The provider's host patterns (isAllowedHost), e.g. `*.okta.com`. */
      allowedHosts: readonly string[];
      dispatcher: Dispatcher;
      governor: RateLimitGovernor;
      stats: ConnectorStatsRecorder;
      userAgent: string;
    },
  ) {}

  async send(req: TransportRequest): Promise<TransportResponse> {
    const { governor, stats } = this.options;
    assertProviderUrl(req.url, this.options.origin, this.options.allowedHosts);
    const bucket = `${req.method} ${req.template}`;
    let failures = 0; // 5xx answers and network errors so far
    let throttled = 0; // 429s so far
    for (;;) {
      const outcome = await this.attempt(bucket, req);
      if ('failure' in outcome) {
        req.signal?.throwIfAborted();
        const failure = classifyNetworkError(outcome.failure, req.url, this.options.provider);
        if (!req.idempotent || !failure.transient) throw failure.error;
        const delay = governor.retryDelayMs(bucket, 'network', ++failures);
        if (delay === null) throw failure.error;
        stats.retried();
        await governor.sleep(delay, req.signal);
        continue;
      }
      const { response } = outcome;
      let delay: number | null;
      if (response.status === 429) {
        // A 429 was not carried out and says when to come back: it has its own budget of
        // retries, apart from the attempts kept for failures.
        delay =
          ++throttled > MAX_THROTTLED_RETRIES
            ? null
            : governor.retryDelayMs(bucket, 'rate_limited', throttled, response.headers);
        stats.rateLimited(bucket, delay ?? 0);
      } else if (req.idempotent && RETRYABLE_STATUSES.has(response.status)) {
        delay = governor.retryDelayMs(bucket, 'server_error', ++failures, response.headers);
      } else {
        return response;
      }
      if (delay === null) return response;
      stats.retried();
      await governor.sleep(delay, req.signal);
    }
  }

  private async attempt(
    bucket: string,
    req: TransportRequest,
  ): Promise<{ response: TransportResponse } | { failure: unknown }> {
    const { governor, stats } = this.options;
    const release = await governor.acquire(bucket, req.signal, req.units);
    try {
      stats.request(bucket);
      const res = await request(req.url, {
        dispatcher: this.options.dispatcher,
        method: req.method,
        headers: { ...req.headers, 'user-agent': this.options.userAgent },
        body: req.body,
        signal: req.signal,
      });
      // Reading the body inside the try: a connection dropped mid-body is a network failure.
      const bytes = new Uint8Array(await res.body.arrayBuffer());
      governor.observe(bucket, res.headers);
      return { response: transportResponse(res.statusCode, res.headers, bytes) };
    } catch (failure) {
      return { failure };
    } finally {
      release();
    }
  }
}

/** A response whose text is decoded only when read: pages handed to a worker never are here. */
function transportResponse(
  status: number,
  headers: TransportResponse['headers'],
  bytes: Uint8Array<ArrayBuffer>,
): TransportResponse {
  let text: string | undefined;
  return {
    status,
    headers,
    bytes,
    get body() {
      return (text ??= UTF8.decode(bytes));
    },
  };
}
