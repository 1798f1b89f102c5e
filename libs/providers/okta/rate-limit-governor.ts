import { setTimeout as delay } from 'node:timers/promises';

/** Time source and sleeper, injectable so the governor's rules are testable without waiting. */
export interface GovernorClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: GovernorClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(ms, undefined, { signal }),
};

/** What one response said about its rate-limit bucket, on the local clock. */
export interface BucketState {
  /** `X-Rate-Limit-Limit`: requests allowed per window. */
  limit: number;
  /** `X-Rate-Limit-Remaining`: requests left in the window when the response was made. */
  remaining: number;
  /** `X-Rate-Limit-Reset` as sent: the window's end in UTC epoch seconds, naming the window. */
  resetEpochSeconds: number;
  /** The same instant on the local clock, epoch milliseconds. */
  resetAtMs: number;
}

export interface RateLimitGovernorOptions {
  /** Requests in flight at once, all buckets together (>= 1). */
  maxConcurrency: number;
  /** Share of each bucket left to the org's own admins and integrations, 0 <= headroom < 1. */
  headroom: number;
  /** Attempts per request, the first included (>= 1). */
  maxAttempts: number;
  /** First backoff step for 5xx and dropped connections, ms; doubles per attempt. */
  baseDelayMs: number;
  /** Ceiling of one backoff step, ms. */
  maxDelayMs: number;
  /** Upper bound of the random delay added to every wait for a reset, ms. */
  resetJitterMs: number;
  clock?: GovernorClock;
  /** Uniform in [0, 1); injectable for tests. */
  random?: () => number;
}

/** Why a request is being retried. */
export type RetryCause = 'rate_limited' | 'server_error' | 'network';

/**
 * Reads Okta's `X-Rate-Limit-Limit`, `-Remaining` and `-Reset` headers (Okta "Rate limits":
 * reset is UTC epoch seconds). The reset is moved onto the local clock through the response's
 * `Date` header when present, as Okta's SDKs do, so a skewed local clock does not make us wait
 * too little or too long. Returns null when a header is missing or not a number.
 *
 * @param headers lower-case header names, as undici returns them.
 * @param localNowMs local epoch ms when the response arrived.
 */
export function parseRateLimitHeaders(
  headers: Record<string, string | string[] | undefined>,
  localNowMs: number,
): BucketState | null {
  const limit = numberHeader(headers['x-rate-limit-limit']);
  const remaining = numberHeader(headers['x-rate-limit-remaining']);
  const reset = numberHeader(headers['x-rate-limit-reset']);
  if (limit === null || remaining === null || reset === null) return null;
  const serverNowMs = Date.parse(firstValue(headers['date']) ?? '');
  const skewMs = Number.isNaN(serverNowMs) ? 0 : localNowMs - serverNowMs;
  return { limit, remaining, resetEpochSeconds: reset, resetAtMs: reset * 1000 + skewMs };
}

/**
 * How long to hold a request so the bucket keeps `headroom` of its limit free: while
 * `remaining - inFlight <= limit * headroom` and the window has not reset, wait for the reset.
 * Requests already in flight count as spent, since their responses have not told us yet.
 * 0 when the bucket is unknown or its window is over. Milliseconds, without jitter.
 */
export function headroomWaitMs(
  state: BucketState | undefined,
  inFlight: number,
  headroom: number,
  nowMs: number,
): number {
  if (!state || nowMs >= state.resetAtMs) return 0;
  return state.remaining - inFlight <= state.limit * headroom ? state.resetAtMs - nowMs : 0;
}

/**
 * Exponential backoff with "equal jitter": half of `min(max, base * 2^(attempt-1))` fixed, half
 * random, so retries of many clients spread out but still grow. `attempt` is the attempt that
 * failed (1 = the first). Milliseconds.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: number): number {
  const step = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return step / 2 + (step / 2) * random;
}

/**
 * Paces requests to one Okta org: a cap on requests in flight, waits that keep a share of
 * each rate-limit bucket free, and the retry delays for 429, 5xx and dropped connections.
 *
 * Buckets are keyed by the caller (method + path template, e.g. `GET /api/v1/users`), since
 * Okta counts limits per endpoint (Okta "Rate limits"). State lives in this process only: it
 * paces one connector, not every replica (each replica reads the same headers and backs off).
 */
export class RateLimitGovernor {
  private readonly buckets = new Map<string, { state?: BucketState; inFlight: number }>();
  private readonly waiting: Array<() => void> = [];
  private active = 0;
  private readonly clock: GovernorClock;
  private readonly random: () => number;

  constructor(private readonly options: RateLimitGovernorOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
  }

  /**
   * Waits until `bucket` has room above the headroom and a concurrency slot is free, then
   * counts the request as in flight. Call the returned function exactly once when the response
   * (or error) is in, after `observe`.
   *
   * @throws the signal's reason when `signal` aborts while waiting.
   */
  async acquire(bucket: string, signal?: AbortSignal): Promise<() => void> {
    const entry = this.bucket(bucket);
    for (;;) {
      signal?.throwIfAborted();
      const wait = headroomWaitMs(entry.state, entry.inFlight, this.options.headroom, this.clock.now());
      if (wait > 0) {
        await this.clock.sleep(wait + this.jitter(), signal);
        continue;
      }
      await this.takeSlot(signal);
      // The bucket may have filled while we queued for the slot.
      if (headroomWaitMs(entry.state, entry.inFlight, this.options.headroom, this.clock.now()) === 0) break;
      this.releaseSlot();
    }
    entry.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entry.inFlight--;
      this.releaseSlot();
    };
  }

  /**
   * Records a response's `X-Rate-Limit-*` headers for `bucket` (ignored when absent). Responses
   * can arrive out of order under concurrency, so a response of an older window is ignored
   * and within a window the lowest `remaining` wins.
   */
  observe(bucket: string, headers: Record<string, string | string[] | undefined>): void {
    const state = parseRateLimitHeaders(headers, this.clock.now());
    if (!state) return;
    const entry = this.bucket(bucket);
    const previous = entry.state;
    if (previous && previous.resetEpochSeconds > state.resetEpochSeconds) return;
    if (previous && previous.resetEpochSeconds === state.resetEpochSeconds) {
      state.remaining = Math.min(state.remaining, previous.remaining);
    }
    entry.state = state;
  }

  /**
   * Milliseconds to wait before retrying after `attempt` failed for `cause`, or null when the
   * attempts are spent. A 429 waits until the bucket's reset plus jitter (as Okta's SDKs do),
   * falling back to backoff when the response had no usable headers; 5xx and network errors
   * back off exponentially.
   */
  retryDelayMs(bucket: string, cause: RetryCause, attempt: number): number | null {
    if (attempt >= this.options.maxAttempts) return null;
    const state = this.buckets.get(bucket)?.state;
    const now = this.clock.now();
    if (cause === 'rate_limited' && state && state.resetAtMs > now) {
      return state.resetAtMs - now + this.jitter();
    }
    return backoffMs(attempt, this.options.baseDelayMs, this.options.maxDelayMs, this.random());
  }

  /** Sleeps on the governor's clock (so tests control retry waits too). */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.clock.sleep(ms, signal);
  }

  private bucket(key: string): { state?: BucketState; inFlight: number } {
    let entry = this.buckets.get(key);
    if (!entry) {
      entry = { inFlight: 0 };
      this.buckets.set(key, entry);
    }
    return entry;
  }

  private jitter(): number {
    return Math.floor(this.random() * this.options.resetJitterMs);
  }

  private takeSlot(signal?: AbortSignal): Promise<void> {
    if (this.active < this.options.maxConcurrency) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.active++;
        resolve();
      };
      const onAbort = (): void => {
        const index = this.waiting.indexOf(grant);
        if (index !== -1) this.waiting.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  private releaseSlot(): void {
    this.active--;
    this.waiting.shift()?.();
  }
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function numberHeader(value: string | string[] | undefined): number | null {
  const text = firstValue(value);
  if (text === undefined || text.trim() === '') return null;
  const number = Number(text);
  return Number.isFinite(number) ? number : null;
}
