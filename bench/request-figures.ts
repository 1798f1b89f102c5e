import type { RequestLogSummary } from '@libs/simulators/okta/http/request-log.js';
import { HEADROOM, round } from './bench-org.js';
import { rateLimitLowerBound } from './rate-limit-bound.js';

/** What the org saw of one measured run, and how it compares with Okta's rate limits. */
export interface RequestFigures {
  /** requests per `METHOD /template` during the run */
  byEndpoint: Record<string, number>;
  requests: number;
  status429: number;
  /** the least wall time the limits allow these requests (0 without limits), seconds */
  lower_bound_seconds: number;
  /** wall time over the lower bound; null without limits */
  ratio: number | null;
}

/** The org's requests between two reads of its log, for a run of `seconds`. */
export function requestFigures(
  before: RequestLogSummary,
  after: RequestLogSummary,
  rateLimits: 'none' | 'enterprise',
  seconds: number,
): RequestFigures {
  const byEndpoint = Object.fromEntries(
    Object.entries(after.byEndpoint)
      .map(([endpoint, count]) => [endpoint, count - (before.byEndpoint[endpoint] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
  const lowerBound = rateLimits === 'enterprise' ? rateLimitLowerBound(byEndpoint, HEADROOM) : 0;
  return {
    byEndpoint,
    requests: Object.values(byEndpoint).reduce((sum, count) => sum + count, 0),
    status429: after.status429 - before.status429,
    lower_bound_seconds: round(lowerBound),
    ratio: lowerBound > 0 ? round(seconds / lowerBound) : null,
  };
}

/** Prints a bench's result: one JSON line, or requests by endpoint and one figure per line. */
export function printFigures(
  result: Record<string, unknown>,
  byEndpoint: Record<string, number>,
  json: boolean,
): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  process.stdout.write(`\nrequests by endpoint:\n`);
  for (const [endpoint, count] of Object.entries(byEndpoint).sort((a, b) => b[1] - a[1]))
    process.stdout.write(`  ${String(count).padStart(7)}  ${endpoint}\n`);
  process.stdout.write(
    `\n${Object.entries(result)
      .map(([key, value]) => `${key.padEnd(20)} ${typeof value === 'object' ? JSON.stringify(value) : value}`)
      .join('\n')}\n`,
  );
}
