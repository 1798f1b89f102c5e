import { mulberry32 } from '@libs/okta-simulator/seed/prng.js';

/**
 * Faults to inject into responses, for resilience tests. Rates are probabilities in [0, 1]
 * drawn per request from a PRNG seeded with `seed` (default 1), so a run is repeatable.
 */
export interface FaultOptions {
  /** Share of requests answered 500 with Okta's E0000009 body. */
  errorRate?: number;
  /** Share of requests whose connection is destroyed before any response byte. */
  dropRate?: number;
  /** Share of responses cut off after half their body, then the connection destroyed. */
  truncateRate?: number;
  /**
   * Share of requests answered 429 E0000047 with `X-Rate-Limit-Remaining: 0` and a reset one
   * second ahead, before they reach their handler: a burst of the org's other clients spending
   * the bucket ("Rate limits" overview, Okta developer docs).
   */
  throttleRate?: number;
  /** Extra delay added to every response, in milliseconds. */
  latencyMs?: number;
  seed?: number;
}

export type FaultAction = 'none' | 'error' | 'drop' | 'truncate' | 'throttle';

/** Draws the fault, if any, for each request. */
export class FaultInjector {
  private readonly random: () => number;

  constructor(private options: FaultOptions = {}) {
    this.random = mulberry32(options.seed ?? 1);
  }

  /** Injects `options` from now on (the draws go on from where they were). */
  configure(options: FaultOptions): void {
    this.options = options;
  }

  get latencyMs(): number {
    return this.options.latencyMs ?? 0;
  }

  next(): FaultAction {
    const { errorRate = 0, dropRate = 0, truncateRate = 0, throttleRate = 0 } = this.options;
    if (errorRate + dropRate + truncateRate + throttleRate === 0) return 'none';
    const draw = this.random();
    if (draw < dropRate) return 'drop';
    if (draw < dropRate + errorRate) return 'error';
    if (draw < dropRate + errorRate + truncateRate) return 'truncate';
    if (draw < dropRate + errorRate + truncateRate + throttleRate) return 'throttle';
    return 'none';
  }
}
