import { mulberry32 } from '@libs/simulators/kit/seed/prng.js';

/**
 * Faults to inject into responses, for resilience tests. Rates are probabilities in [0, 1]
 * drawn per request from a PRNG seeded with `seed` (default 1), so a run is repeatable.
 */
export interface FaultOptions {
  /** Share of requests answered 500, in the simulated API's error body (Okta's E0000009, Graph's). */
  errorRate?: number;
  /** Share of requests whose connection is destroyed before any response byte. */
  dropRate?: number;
  /** Share of responses cut off after half their body, then the connection destroyed. */
  truncateRate?: number;
  /**
   * Share of requests that start a burst of 429s: the org's other clients spent the request's
   * bucket (at most once a second after the last burst ends: a bucket just reset is full), so it
   * and every request of the same bucket for the next second are answered 429 before they reach
   * their handler (the Okta simulator: E0000047 with `X-Rate-Limit-Remaining: 0` and that
   * second's end as `X-Rate-Limit-Reset`, "Rate limits" overview, Okta developer docs).
   */
  throttleRate?: number;
  /** Extra delay added to every response, in milliseconds. */
  latencyMs?: number;
  seed?: number;
}

export type FaultAction = 'none' | 'error' | 'drop' | 'truncate' | 'throttle';

/** How long a burst of 429s lasts, ms. */
const BURST_MS = 1000;

/** Draws the fault, if any, for each request. */
export class FaultInjector {
  private readonly random: () => number;

  /** Bucket -> when its current burst of 429s ends, epoch ms. */
  private readonly bursts = new Map<string, number>();

  constructor(private options: FaultOptions = {}) {
    this.random = mulberry32(options.seed ?? 1);
  }

  /** Injects `options` from now on (the draws go on from where they were). */
  configure(options: FaultOptions): void {
    this.options = options;
  }

  /** When `bucket`'s burst of 429s ends, epoch seconds (its `X-Rate-Limit-Reset`). */
  burstResetSeconds(bucket: string): number {
    return Math.ceil((this.bursts.get(bucket) ?? Date.now()) / 1000);
  }

  get latencyMs(): number {
    return this.options.latencyMs ?? 0;
  }

  /**
   * The fault for one request of rate-limit bucket `bucket` at `nowMs`: a request inside a burst
   * of its bucket is throttled; otherwise one is drawn.
   */
  next(bucket = '', nowMs = Date.now()): FaultAction {
    const burstEnd = this.bursts.get(bucket) ?? 0;
    if (burstEnd > nowMs) return 'throttle';
    const { errorRate = 0, dropRate = 0, truncateRate = 0, throttleRate = 0 } = this.options;
    if (errorRate + dropRate + truncateRate + throttleRate === 0) return 'none';
    const draw = this.random();
    if (draw < dropRate) return 'drop';
    if (draw < dropRate + errorRate) return 'error';
    if (draw < dropRate + errorRate + truncateRate) return 'truncate';
    if (draw < dropRate + errorRate + truncateRate + throttleRate) {
      // A bucket just reset is full again: the other clients need a window to spend it anew.
      if (nowMs < burstEnd + BURST_MS) return 'none';
      this.bursts.set(bucket, nowMs + BURST_MS);
      return 'throttle';
    }
    return 'none';
  }
}
