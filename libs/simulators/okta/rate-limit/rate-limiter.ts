import { bucketFor } from './rate-limit-buckets.js';

export type RateLimitMode = 'none' | 'enterprise';

/** The state of one bucket after counting a request; `limited` means answer 429. */
export interface RateLimitDecision {
  limit: number;
  remaining: number;
  /** Epoch seconds when the bucket's window ends (Okta's `X-Rate-Limit-Reset`). */
  reset: number;
  limited: boolean;
}

/** In `none` mode every bucket advertises this limit and never runs out. */
const UNLIMITED = 1_000_000;
const WINDOW_MS = 60_000;

interface Window {
  startedAt: number;
  count: number;
}

/**
 * Fixed one-minute windows per bucket, as Okta's rate limits work: the window opens with the
 * bucket's first request, `X-Rate-Limit-Reset` is its end, and requests past the limit are
 * refused until then. In `enterprise` mode limits are Okta's Enterprise figures; in `none` mode
 * the headers are sent with a very high limit and nothing is refused.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private mode: RateLimitMode,
    private readonly now: () => number = Date.now,
  ) {}

  /** Applies `mode` from the next request on, every bucket in a fresh window. */
  setMode(mode: RateLimitMode): void {
    this.mode = mode;
    this.windows.clear();
  }

  /** Counts one request against its bucket (see rate-limit-buckets.ts) and decides. */
  take(method: string, template: string): RateLimitDecision {
    const bucket = bucketFor(method, template);
    const limit = this.mode === 'enterprise' ? bucket.perMinute : UNLIMITED;
    const now = this.now();
    let window = this.windows.get(bucket.name);
    if (!window || now >= window.startedAt + WINDOW_MS) {
      window = { startedAt: now, count: 0 };
      this.windows.set(bucket.name, window);
    }
    window.count++;
    const limited = this.mode === 'enterprise' && window.count > limit;
    return {
      limit,
      remaining: Math.max(0, limit - window.count),
      reset: Math.ceil((window.startedAt + WINDOW_MS) / 1000),
      limited,
    };
  }
}
