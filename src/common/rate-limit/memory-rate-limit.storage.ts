import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { fixedWindowRecord, type ThrottlerStorageRecord } from './fixed-window.js';

/** How often windows that have ended are dropped, ms. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Fixed-window counters in this process's memory: the default storage, right for a single
 * replica (DESIGN section 2). A window starts at the first request of a key and lasts `ttl` ms;
 * ended windows are swept once a minute, so memory is bounded by the clients seen per window.
 */
export class MemoryRateLimitStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly windows = new Map<string, { hits: number; endsAt: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();

  /** @param ttl window length, ms; `blockDuration` is ignored: a blocked key waits for its window to end. */
  increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { hits: 0, endsAt: now + ttl };
      this.windows.set(key, window);
    }
    window.hits += 1;
    return Promise.resolve(fixedWindowRecord(window.hits, window.endsAt - now, limit));
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}
