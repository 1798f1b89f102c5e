import type { ConnectorStats } from '@libs/providers/provider-connector.js';

/** Counts what a connector sent, for `ProviderConnector.stats()`. */
export class ConnectorStatsRecorder {
  private requests = 0;
  private readonly byEndpoint: Record<string, number> = {};
  private status429 = 0;
  private retries = 0;
  private readonly throttled: ConnectorStats['throttled'] = {};

  /** One HTTP request sent (every attempt counts); `endpoint` is `METHOD /path/template`. */
  request(endpoint: string): void {
    this.requests++;
    this.byEndpoint[endpoint] = (this.byEndpoint[endpoint] ?? 0) + 1;
  }

  /** A 429 answered a request of `bucket`, which then waits `waitMs` to be sent again (0 when it gives up). */
  rateLimited(bucket: string, waitMs: number): void {
    this.status429++;
    const entry = (this.throttled[bucket] ??= { responses: 0, waitSeconds: 0 });
    entry.responses++;
    entry.waitSeconds += waitMs / 1000;
  }

  retried(): void {
    this.retries++;
  }

  /** A copy, so callers cannot change the counters. */
  snapshot(): ConnectorStats {
    return {
      requests: this.requests,
      byEndpoint: { ...this.byEndpoint },
      status429: this.status429,
      retries: this.retries,
      throttled: Object.fromEntries(
        Object.entries(this.throttled).map(([bucket, entry]) => [bucket, { ...entry }]),
      ),
    };
  }
}
