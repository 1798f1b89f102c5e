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
  /** Requests allowed per window (Okta: `X-Rate-Limit-Limit`). */
  limit: number;
  /** Requests left in the window when the response was made (Okta: `X-Rate-Limit-Remaining`). */
  remaining: number;
  /** The window's end in UTC epoch seconds as sent, naming the window (Okta: `X-Rate-Limit-Reset`). */
  resetEpochSeconds: number;
  /** The same instant on the local clock, epoch milliseconds. */
  resetAtMs: number;
}

/** Response headers, lower-case names as undici returns them; repeated ones as arrays. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/**
 * One way a provider tells its rate limits in response headers, plugged into the governor
 * (`RateLimitGovernorOptions.signals`). A signal reads a bucket's window (Okta's
 * `X-Rate-Limit-*`: okta/okta-rate-limit-signal.ts), or when to send again after a throttled
 * answer (standard `Retry-After`: retry-after.ts), or what the request cost against a shared
 * budget (Graph's `x-ms-resource-unit`: entra/graph-rate-limits.ts), or several of these.
 */
export interface RateLimitSignal {
  /** The window the response reports for its bucket, or null when it says none. */
  window?(headers: ResponseHeaders, localNowMs: number): BucketState | null;
  /** When a throttled (429) or unavailable (503) answer may be sent again, local epoch ms; null when not said. */
  retryAt?(headers: ResponseHeaders, localNowMs: number): number | null;
  /** The units the request cost against the budget (`RateLimitGovernorOptions.budget`); null when not said. */
  cost?(headers: ResponseHeaders): number | null;
}

/**
 * A budget of units every request draws on, whatever its bucket, refilled continuously (a token
 * bucket: Graph's resource units per application+tenant, "Microsoft Graph service-specific
 * throttling limits"). A request is charged its bucket's last reported cost (1 before any), the
 * difference settled when its answer reports the real one.
 */
export interface UnitBudget {
  /** Units per window, read at each request (it may grow as the provider's tenant turns out larger). */
  units: () => number;
  windowMs: number;
}

/**
 * A fixed pace for the buckets whose key matches, all of them together: a request goes
 * `minIntervalMs` after the previous one was sent and after its answer came.
 */
export interface BucketSpacing {
  buckets: RegExp;
  minIntervalMs: number;
}

/**
 * A number of requests the provider allows in a window to the buckets whose key matches, all of
 * them together (Graph's write limits), which its answers do not count down: a token bucket that
 * starts full and refills continuously, `headroom` of it left free.
 */
export interface RequestQuota {
  buckets: RegExp;
  requests: number;
  windowMs: number;
}

export interface RateLimitGovernorOptions {
  /** The provider's signals, in precedence order: the first that answers sets a retry's wait. */
  signals: readonly RateLimitSignal[];
  /** Requests in flight at once, all buckets together (>= 1). */
  maxConcurrency: number;
  /** Share of each bucket left to the org's own admins and integrations, 0 <= headroom < 1. */
  headroom: number;
  /**
   * The least share of a bucket left free while its answers show no one else used it in the
   * current window (reserveWaitMs), 0 <= idleHeadroom <= headroom; default `headroom` (the
   * reserve is never spent into).
   */
  idleHeadroom?: number;
  /**
   * Length of the provider's rate-limit windows, ms (Okta: a minute). With it, the reserve of a
   * bucket no one else uses shrinks with the window's time left (reserveWaitMs); without it, it
   * is `idleHeadroom`.
   */
  windowMs?: number;
  /**
   * The provider's rate-limit bucket a request key counts against, when several endpoints share
   * one (Okta's `/api/v1/apps/{id}/*`); default the key itself. Requests in flight and our own
   * answers are counted per bucket.
   */
  bucketOf?: (key: string) => string;
  /** Attempts per request, the first included (>= 1). */
  maxAttempts: number;
  /** First backoff step for 5xx and dropped connections, ms; doubles per attempt. */
  baseDelayMs: number;
  /** Ceiling of one backoff step, ms. */
  maxDelayMs: number;
  /** Upper bound of the random delay added to every wait for a reset, ms. */
  resetJitterMs: number;
  /** A shared budget of units, `headroom` of it left free; none by default. */
  budget?: UnitBudget;
  /** Paces for buckets a provider limits without saying so in headers; none by default. */
  spacing?: readonly BucketSpacing[];
  /** Request quotas of matching buckets, counted here; none by default. */
  quotas?: readonly RequestQuota[];
  clock?: GovernorClock;
  /** Uniform in [0, 1); injectable for tests. */
  random?: () => number;
}

/** What the governor knows of one rate-limit bucket. */
interface BucketEntry {
  state?: BucketState;
  inFlight: number;
  /** Our answers that reported `state`'s window. */
  ownAnswers: number;
  /** Requests waiting for the reserve, woken when one of the bucket's requests is answered. */
  waking: Set<AbortController>;
}

/** Why a request is being retried. */
export type RetryCause = 'rate_limited' | 'server_error' | 'network';

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

/** The resolution of a reset the provider tells in whole seconds (Okta's `X-Rate-Limit-Reset`), ms. */
const RESET_RESOLUTION_MS = 1_000;

/** How much of each bucket to keep free for the tenant's other clients (RateLimitGovernorOptions). */
export interface ReservePolicy {
  headroom: number;
  idleHeadroom: number;
  windowMs?: number;
  /** Requests we may send before an answer can show someone else started: our requests in flight at most. */
  unseen: number;
}

/**
 * How long to hold a request so that the tenant's other clients keep their reserve, ms (0: send
 * it now; without jitter).
 *
 * - Someone else spent a request of the bucket's current window: keep `headroom` of the limit
 *   (headroomWaitMs). Others' use is the window's spent requests (`limit - remaining`, the lowest
 *   `remaining` of the window) less our own answers in it (`ownAnswers`); our requests in flight
 *   can only make it too high, so an unclear answer keeps the full reserve.
 * - No one else did: the reserve is a rate others have not used, `headroom` of the limit per
 *   window, so the part of the window that has passed is theirs no longer. Keep
 *   `headroom * limit * (timeLeft + 1 s) / windowMs + 1 + unseen` (the reset is told in whole
 *   seconds; a client at that rate sends its first request at once; we may send `unseen` more
 *   before an answer shows it), never more than `headroom` nor less than `idleHeadroom` of the
 *   limit: a client that starts now and sends at the reserved rate until the reset still finds
 *   room for every request. Without `windowMs`, keep `idleHeadroom` of the limit.
 */
export function reserveWaitMs(
  state: BucketState | undefined,
  inFlight: number,
  ownAnswers: number,
  policy: ReservePolicy,
  nowMs: number,
): number {
  const { headroom, windowMs } = policy;
  if (!state || nowMs >= state.resetAtMs) return 0;
  const idleHeadroom = Math.min(headroom, policy.idleHeadroom);
  if (state.limit - state.remaining - ownAnswers > 0) return headroomWaitMs(state, inFlight, headroom, nowMs);
  const free = state.remaining - inFlight;
  if (!windowMs || free <= state.limit * idleHeadroom || free > state.limit * headroom)
    return headroomWaitMs(state, inFlight, idleHeadroom, nowMs);
  // The reserve falls below `free` when the time left, plus the reset's resolution, is
  // (free - 1 - unseen) / (headroom * limit) windows.
  const share = (free - 1 - policy.unseen) / (headroom * state.limit);
  const until = state.resetAtMs + RESET_RESOLUTION_MS - share * windowMs;
  return until < nowMs ? 0 : Math.floor(until - nowMs) + 1;
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
 * Paces requests to one tenant of a provider: a cap on requests in flight, waits that keep a
 * share of each rate-limit bucket free (and of a shared unit budget, when the provider meters
 * requests by cost), fixed paces for buckets limited without headers, and the retry delays for
 * 429, 5xx and dropped connections, read from the provider's rate-limit signals. The share kept
 * free is `headroom` while anyone else uses the bucket in its window, and shrinks with the
 * window's time left while no one does (reserveWaitMs; docs/backups.md "Rate limits").
 *
 * Buckets are keyed by the caller (method + path template, e.g. `GET /api/v1/users`), since
 * providers count limits per endpoint (Okta "Rate limits"), and grouped by `bucketOf` where
 * several endpoints share one. State lives in this process only: it
 * paces one connector, not every replica (each replica reads the same headers and backs off).
 */
export class RateLimitGovernor {
  private readonly buckets = new Map<string, BucketEntry>();
  private readonly waiting: Array<() => void> = [];
  private active = 0;
  /** Units left in the budget (negative: reserved ahead), when it was last refilled, and each bucket's last cost. */
  private readonly units = { left: Number.NaN, at: 0, costs: new Map<string, number>() };
  /** For each quota, the requests left (negative: reserved ahead) and when it was last refilled. */
  private readonly quotaLeft = new Map<RequestQuota, { left: number; at: number }>();
  /** For each spacing rule, when its next request may go (local epoch ms). */
  private readonly nextSpaced = new Map<BucketSpacing, number>();
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
   * @param units what the request will cost against the budget, when the caller knows better than
   *   the bucket's last answer (a batch of requests); default that last cost, or 1.
   * @throws the signal's reason when `signal` aborts while waiting.
   */
  async acquire(bucket: string, signal?: AbortSignal, units?: number): Promise<() => void> {
    const entry = this.bucket(this.bucketOf(bucket));
    const unitsWait = Math.max(this.reserveUnits(bucket, units), this.reserveQuota(bucket));
    if (unitsWait > 0) await this.clock.sleep(unitsWait, signal);
    const spacing = this.options.spacing?.find((rule) => rule.buckets.test(bucket));
    for (;;) {
      signal?.throwIfAborted();
      const wait = this.reserveWaitMs(entry, this.clock.now());
      if (wait > 0) {
        await this.sleepUntilAnswer(entry, wait + this.jitter(), signal);
        continue;
      }
      const spaced = this.spacingWaitMs(spacing);
      if (spaced > 0) {
        await this.clock.sleep(spaced, signal);
        continue;
      }
      await this.takeSlot(signal);
      // The bucket may have filled, or a spaced request gone, while we queued for the slot.
      const now = this.clock.now();
      if (this.reserveWaitMs(entry, now) === 0 && this.spacingWaitMs(spacing) === 0) {
        if (spacing) this.nextSpaced.set(spacing, now + spacing.minIntervalMs);
        break;
      }
      this.releaseSlot();
    }
    entry.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entry.inFlight--;
      for (const wake of entry.waking) wake.abort();
      // The pace also counts from the answer: a request sent late (a new connection's handshake)
      // reaches the provider late, and the next must not arrive within the interval of it.
      if (spacing)
        this.nextSpaced.set(
          spacing,
          Math.max(this.nextSpaced.get(spacing) ?? 0, this.clock.now() + spacing.minIntervalMs),
        );
      this.releaseSlot();
    };
  }

  /**
   * Records the window a response reports for `bucket` (the first signal that reads one;
   * ignored when none does), and counts the answer as ours in that window. Responses can arrive
   * out of order under concurrency, so a response of an older window is ignored and within a
   * window the lowest `remaining` wins.
   */
  observe(bucket: string, headers: ResponseHeaders): void {
    const now = this.clock.now();
    let state: BucketState | null = null;
    for (const signal of this.options.signals) {
      state = signal.window?.(headers, now) ?? null;
      if (state) break;
    }
    this.settleCost(bucket, headers);
    if (!state) return;
    const entry = this.bucket(this.bucketOf(bucket));
    const previous = entry.state;
    if (previous && previous.resetEpochSeconds > state.resetEpochSeconds) return;
    if (previous && previous.resetEpochSeconds === state.resetEpochSeconds) {
      state.remaining = Math.min(state.remaining, previous.remaining);
      entry.ownAnswers++;
    } else {
      entry.ownAnswers = 1;
    }
    entry.state = state;
  }

  /**
   * Milliseconds to wait before retrying after `attempt` failed for `cause`, or null when the
   * attempts are spent. The signals are asked in order: for a 429, the reset its own answer
   * states, else the bucket's known reset (as Okta's SDKs do) or the answer's `Retry-After`; for a 5xx, its `Retry-After` (RFC 9110
   * §10.2.3), each plus jitter. Without an answer from them, and for network errors, the wait
   * backs off exponentially.
   *
   * @param headers the failed answer's headers (none for a network error).
   */
  retryDelayMs(bucket: string, cause: RetryCause, attempt: number, headers?: ResponseHeaders): number | null {
    // 429s are capped by the caller (HttpTransport): they are not failures.
    if (cause !== 'rate_limited' && attempt >= this.options.maxAttempts) return null;
    const state = this.buckets.get(this.bucketOf(bucket))?.state;
    const now = this.clock.now();
    for (const signal of cause === 'network' ? [] : this.options.signals) {
      // The throttled answer's own window first: it says when this request may pass. The bucket's
      // latest state may come from an answer that crossed it, reporting a later window with room.
      const resetAtMs =
        cause === 'rate_limited'
          ? ((headers && signal.window?.(headers, now))?.resetAtMs ?? (signal.window && state?.resetAtMs))
          : undefined;
      if (typeof resetAtMs === 'number' && resetAtMs > now) return resetAtMs - now + this.jitter();
      const at = headers && signal.retryAt?.(headers, now);
      if (typeof at === 'number') return Math.max(0, at - now) + this.jitter();
    }
    return backoffMs(attempt, this.options.baseDelayMs, this.options.maxDelayMs, this.random());
  }

  /** Sleeps on the governor's clock (so tests control retry waits too). */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.clock.sleep(ms, signal);
  }

  /**
   * Charges the budget `units` (default the bucket's expected cost) and returns how long to wait, ms, until the
   * budget (less its headroom) has refilled enough; 0 without a budget. Waiting requests reserve
   * units in turn, so they go in the order they asked.
   */
  private reserveUnits(bucket: string, units?: number): number {
    const { budget, headroom } = this.options;
    if (!budget) return 0;
    const capacity = budget.units() * (1 - headroom);
    const now = this.clock.now();
    const rate = capacity / budget.windowMs;
    const left = Number.isNaN(this.units.left) ? capacity : this.units.left + (now - this.units.at) * rate;
    this.units.left = Math.min(capacity, left) - (units ?? this.units.costs.get(bucket) ?? 1);
    this.units.at = now;
    return this.units.left >= 0 ? 0 : Math.ceil(-this.units.left / rate);
  }

  /**
   * Takes one request from the quota matching `bucket` and returns how long to wait, ms, until it
   * has refilled enough (less its headroom); 0 when none matches. Waiting requests reserve in turn.
   */
  private reserveQuota(bucket: string): number {
    const quota = this.options.quotas?.find((rule) => rule.buckets.test(bucket));
    if (!quota) return 0;
    const capacity = quota.requests * (1 - this.options.headroom);
    const rate = capacity / quota.windowMs;
    const now = this.clock.now();
    const held = this.quotaLeft.get(quota);
    const left = held ? Math.min(capacity, held.left + (now - held.at) * rate) - 1 : capacity - 1;
    this.quotaLeft.set(quota, { left, at: now });
    return left >= 0 ? 0 : Math.ceil(-left / rate);
  }

  /** How long until a request under `rule` may be sent, ms (0 without a rule); the pace is kept from when they are sent. */
  private spacingWaitMs(rule: BucketSpacing | undefined): number {
    if (!rule) return 0;
    return Math.max(0, (this.nextSpaced.get(rule) ?? 0) - this.clock.now());
  }

  /** Settles what a request cost against what it was charged, and keeps it as the bucket's expected cost. */
  private settleCost(bucket: string, headers: ResponseHeaders): void {
    if (!this.options.budget) return;
    for (const signal of this.options.signals) {
      const cost = signal.cost?.(headers);
      if (typeof cost !== 'number' || !(cost >= 0)) continue;
      if (!Number.isNaN(this.units.left)) this.units.left -= cost - (this.units.costs.get(bucket) ?? 1);
      this.units.costs.set(bucket, cost);
      return;
    }
  }

  private bucketOf(key: string): string {
    return this.options.bucketOf?.(key) ?? key;
  }

  private bucket(key: string): BucketEntry {
    let entry = this.buckets.get(key);
    if (!entry) {
      entry = { inFlight: 0, ownAnswers: 0, waking: new Set() };
      this.buckets.set(key, entry);
    }
    return entry;
  }

  /** How long to hold a request to the bucket for the reserve, ms (reserveWaitMs). */
  private reserveWaitMs(entry: BucketEntry, nowMs: number): number {
    const { headroom, idleHeadroom = headroom, windowMs, maxConcurrency } = this.options;
    const policy = { headroom, idleHeadroom, windowMs, unseen: maxConcurrency };
    return reserveWaitMs(entry.state, entry.inFlight, entry.ownAnswers, policy, nowMs);
  }

  /**
   * Sleeps `ms`, or less: until one of the bucket's requests in flight is answered, since its
   * answer may show the window reset or others idle (reserveShare), and the wait shorter.
   * @throws the signal's reason when `signal` aborts
   */
  private async sleepUntilAnswer(entry: BucketEntry, ms: number, signal?: AbortSignal): Promise<void> {
    if (entry.inFlight === 0) return this.clock.sleep(ms, signal);
    const wake = new AbortController();
    entry.waking.add(wake);
    try {
      await this.clock.sleep(ms, signal ? AbortSignal.any([signal, wake.signal]) : wake.signal);
    } catch (error) {
      if (!wake.signal.aborted || signal?.aborted) throw error;
    } finally {
      entry.waking.delete(wake);
    }
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
