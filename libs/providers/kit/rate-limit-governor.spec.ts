import { describe, expect, it } from '@jest/globals';
// The governor is exercised with Okta's signals, the provider whose windows it paces today.
import { OKTA_RATE_LIMIT_SIGNALS } from '@libs/providers/okta/okta-rate-limit-signal.js';
import {
  backoffMs,
  headroomWaitMs,
  RateLimitGovernor,
  reserveWaitMs,
  type GovernorClock,
} from './rate-limit-governor.js';
import { oktaRateLimitBucket } from '@libs/providers/okta/okta-rate-limit-buckets.js';
import { oktaRateLimitHeaders as headers } from '@libs/providers/okta/testing/rate-limit-headers.js';

/** A clock whose sleeps advance time at once and are recorded. */
class FakeClock implements GovernorClock {
  readonly sleeps: number[] = [];
  constructor(public nowMs: number) {}
  now(): number {
    return this.nowMs;
  }
  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.nowMs += ms;
  }
}

const T0 = Date.parse('2026-11-22T10:00:00Z');

function governor(
  clock: FakeClock,
  overrides: Partial<ConstructorParameters<typeof RateLimitGovernor>[0]> = {},
) {
  return new RateLimitGovernor({
    signals: OKTA_RATE_LIMIT_SIGNALS,
    maxConcurrency: 2,
    headroom: 0.2,
    maxAttempts: 5,
    baseDelayMs: 100,
    maxDelayMs: 1000,
    resetJitterMs: 0,
    clock,
    random: () => 0.5,
    ...overrides,
  });
}

describe('headroomWaitMs', () => {
  const state = { limit: 100, remaining: 21, resetEpochSeconds: 0, resetAtMs: T0 + 30_000 };

  it('lets requests through above the headroom', () => {
    expect(headroomWaitMs(state, 0, 0.2, T0)).toBe(0);
  });

  it('waits until the reset once remaining, less requests in flight, reaches the headroom', () => {
    expect(headroomWaitMs(state, 1, 0.2, T0)).toBe(30_000);
    expect(headroomWaitMs({ ...state, remaining: 20 }, 0, 0.2, T0)).toBe(30_000);
  });

  it('does not wait for an unknown bucket or a window already over', () => {
    expect(headroomWaitMs(undefined, 5, 0.2, T0)).toBe(0);
    expect(headroomWaitMs({ ...state, remaining: 0 }, 0, 0.2, T0 + 30_000)).toBe(0);
  });

  it('with no headroom waits only when the bucket is spent', () => {
    expect(headroomWaitMs({ ...state, remaining: 1 }, 0, 0, T0)).toBe(0);
    expect(headroomWaitMs({ ...state, remaining: 0 }, 0, 0, T0)).toBe(30_000);
  });
});

describe('backoffMs', () => {
  it('doubles per attempt with half of each step random, up to the ceiling', () => {
    expect(backoffMs(1, 100, 1000, 0)).toBe(50);
    expect(backoffMs(1, 100, 1000, 1)).toBe(100);
    expect(backoffMs(3, 100, 1000, 0.5)).toBe(300);
    expect(backoffMs(10, 100, 1000, 1)).toBe(1000);
  });
});

describe('RateLimitGovernor', () => {
  it('holds a request until the reset when the bucket is at its headroom', async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock);
    const release = await sut.acquire('GET /api/v1/users');
    sut.observe('GET /api/v1/users', headers(100, 20, T0 + 10_000));
    release();

    await sut.acquire('GET /api/v1/users');
    expect(clock.sleeps).toEqual([10_000]);
    expect(clock.nowMs).toBe(T0 + 10_000);
  });

  it('keeps buckets apart', async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock);
    sut.observe('GET /api/v1/users', headers(100, 0, T0 + 10_000));
    (await sut.acquire('GET /api/v1/groups'))();
    expect(clock.sleeps).toEqual([]);
  });

  it('keeps the lowest remaining of one window and ignores older windows', async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock);
    sut.observe('b', headers(100, 15, T0 + 10_000));
    sut.observe('b', headers(100, 90, T0 + 10_000));
    sut.observe('b', headers(100, 99, T0 - 50_000));
    await sut.acquire('b');
    expect(clock.sleeps).toEqual([10_000]);
  });

  it('caps requests in flight and hands slots over in order', async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock, { maxConcurrency: 1 });
    const order: string[] = [];
    const first = await sut.acquire('b');
    const second = sut.acquire('b').then((release) => {
      order.push('second');
      return release;
    });
    const third = sut.acquire('b').then((release) => {
      order.push('third');
      return release;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    first();
    (await second)();
    (await third)();
    expect(order).toEqual(['second', 'third']);
  });

  it('stops waiting for a slot when the signal aborts', async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock, { maxConcurrency: 1 });
    const held = await sut.acquire('b');
    const controller = new AbortController();
    const queued = sut.acquire('b', controller.signal);
    controller.abort(new Error('stop'));
    await expect(queued).rejects.toThrow('stop');
    held();
    (await sut.acquire('b'))();
  });

  it('after a 429 waits until the reset plus jitter', () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock, { resetJitterMs: 1000, random: () => 0.25 });
    sut.observe('b', headers(100, 0, T0 + 7000));
    expect(sut.retryDelayMs('b', 'rate_limited', 1)).toBe(7250);
  });

  it('after a 429 waits for the reset its own answer states, though a later answer reported a later window', () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock);
    const throttled = headers(100, 0, T0 + 1000);
    sut.observe('b', throttled);
    sut.observe('b', headers(100, 90, T0 + 60_000)); // an answer that crossed the 429
    expect(sut.retryDelayMs('b', 'rate_limited', 1, throttled)).toBe(1000);
  });

  it('backs off for 429s without headers, 5xx and network errors, and gives up after maxAttempts', () => {
    const sut = governor(new FakeClock(T0));
    expect(sut.retryDelayMs('b', 'rate_limited', 1)).toBe(75);
    expect(sut.retryDelayMs('b', 'server_error', 2)).toBe(150);
    expect(sut.retryDelayMs('b', 'network', 4)).toBe(600);
    expect(sut.retryDelayMs('b', 'network', 5)).toBeNull();
  });

  it('after a 429 without a window waits as its Retry-After says, plus jitter', () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock, { resetJitterMs: 1000, random: () => 0.25 });
    expect(sut.retryDelayMs('b', 'rate_limited', 1, { 'retry-after': '2.128' })).toBe(2128 + 250);
  });

  it("prefers the bucket's reset to a Retry-After, in the signals' order", () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock);
    sut.observe('b', headers(100, 0, T0 + 7000));
    expect(sut.retryDelayMs('b', 'rate_limited', 1, { 'retry-after': '30' })).toBe(7000);
  });

  it("waits for a 503's Retry-After, and backs off for a network error whatever was said", () => {
    const sut = governor(new FakeClock(T0));
    expect(sut.retryDelayMs('b', 'server_error', 1, { 'retry-after': '3' })).toBe(3000);
    expect(sut.retryDelayMs('b', 'network', 1, { 'retry-after': '3' })).toBe(75);
  });
});

describe('RateLimitGovernor budget and spacing', () => {
  /** A signal reading the cost of a request, as Graph's `x-ms-resource-unit`. */
  const costSignal = {
    cost: (h: Record<string, unknown>) => (h['units'] === undefined ? null : Number(h['units'])),
  };

  it('charges a shared budget, keeping its headroom free, and waits for it to refill', async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock, {
      signals: [costSignal],
      maxConcurrency: 100,
      budget: { units: () => 10, windowMs: 1_000 },
    });
    // 10 units a second less 20 % headroom: 8 at once, then one every 125 ms.
    for (let i = 0; i < 8; i++) (await sut.acquire('GET /a'))();
    expect(clock.sleeps).toEqual([]);
    (await sut.acquire('GET /b'))();
    expect(clock.sleeps).toEqual([125]);
  });

  it('charges a bucket what its answers said it costs, settling the difference', async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock, {
      signals: [costSignal],
      maxConcurrency: 100,
      budget: { units: () => 10, windowMs: 1_000 },
    });
    const release = await sut.acquire('GET /members');
    sut.observe('GET /members', { units: '3' });
    release();
    // 8 - 1 charged - 2 settled = 5 left: one more request of 3 goes, the next waits for 1 unit.
    (await sut.acquire('GET /members'))();
    expect(clock.sleeps).toEqual([]);
    (await sut.acquire('GET /members'))();
    expect(clock.sleeps).toEqual([125]);
  });

  it('charges what the caller says a request costs (a batch of 20)', async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock, {
      signals: [costSignal],
      maxConcurrency: 100,
      budget: { units: () => 25, windowMs: 1_000 },
    });
    // 25 units a second less 20 % headroom: 20 at once, the next unit 50 ms later.
    (await sut.acquire('POST /$batch', undefined, 20))();
    expect(clock.sleeps).toEqual([]);
    (await sut.acquire('GET /users'))();
    expect(clock.sleeps).toEqual([50]);
  });

  it('spaces the requests of matching buckets, together, and leaves the others alone', async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock, {
      signals: [],
      spacing: [{ buckets: /^GET \/ca\//, minIntervalMs: 1_000 }],
    });
    (await sut.acquire('GET /ca/policies'))();
    (await sut.acquire('GET /users'))();
    (await sut.acquire('GET /ca/locations'))();
    expect(clock.sleeps).toEqual([1_000]);
  });

  it('keeps matching buckets, together, within a request quota less the headroom: a full bucket, then its refill rate', async () => {
    const clock = new FakeClock(T0);
    // 10 writes per 10 s, 20 % headroom: 8 at once, then one every 1,250 ms.
    const sut = governor(clock, {
      signals: [],
      quotas: [{ buckets: /^(POST|PATCH) /, requests: 10, windowMs: 10_000 }],
    });
    for (let i = 0; i < 8; i++) (await sut.acquire(i % 2 ? 'POST /users' : 'PATCH /groups/{id}'))();
    (await sut.acquire('GET /users'))();
    expect(clock.sleeps).toEqual([]);
    (await sut.acquire('POST /users'))();
    (await sut.acquire('POST /users'))();
    expect(clock.sleeps).toEqual([1_250, 1_250]);
  });
});

describe('reserveWaitMs', () => {
  const reset = T0 + 60_000;
  const state = { limit: 100, remaining: 20, resetEpochSeconds: 0, resetAtMs: reset };
  const policy = { headroom: 0.2, idleHeadroom: 0, windowMs: 60_000, unseen: 0 };

  it('keeps the full headroom, until the reset, once anyone else spent a request of the window', () => {
    // 80 spent, 79 of them ours.
    expect(reserveWaitMs(state, 0, 79, policy, T0 + 30_000)).toBe(30_000);
    expect(reserveWaitMs({ ...state, remaining: 21 }, 0, 78, policy, T0 + 30_000)).toBe(0);
  });

  it("while every spent request is ours, keeps the reserve's rate for the window's time left", () => {
    // 20 free: the reserve (20 a window, the first request at once, the reset's second) is 20 with 56 s left.
    expect(reserveWaitMs(state, 0, 80, policy, T0)).toBe(4_001);
    // 11 free, one of them in flight: 10, the reserve for 26 s of the window.
    expect(reserveWaitMs({ ...state, remaining: 11 }, 1, 89, policy, T0)).toBe(34_001);
    expect(reserveWaitMs({ ...state, remaining: 11 }, 1, 89, policy, T0 + 34_001)).toBe(0);
    // Two requests we may send unseen: 10 free is the reserve for 20 s.
    expect(reserveWaitMs({ ...state, remaining: 10 }, 0, 90, { ...policy, unseen: 2 }, T0)).toBe(40_001);
  });

  it('never keeps less than the idle share, and nothing after the reset', () => {
    const floor = { ...policy, idleHeadroom: 0.1 };
    expect(reserveWaitMs({ ...state, remaining: 10 }, 0, 90, floor, T0 + 59_000)).toBe(1_000);
    expect(reserveWaitMs({ ...state, remaining: 0 }, 0, 100, policy, reset)).toBe(0);
  });

  it('without a window length keeps the idle share', () => {
    const fixed = { headroom: 0.2, idleHeadroom: 0.1, unseen: 0 };
    expect(reserveWaitMs({ ...state, remaining: 11 }, 0, 89, fixed, T0)).toBe(0);
    expect(reserveWaitMs({ ...state, remaining: 10 }, 0, 90, fixed, T0)).toBe(60_000);
  });

  it('keeps the full headroom of a bucket not yet answered (nothing to wait for)', () => {
    expect(reserveWaitMs(undefined, 3, 0, policy, T0)).toBe(0);
  });
});

describe('RateLimitGovernor reserve while others are idle', () => {
  const RESET = T0 + 40_000;
  const apps = ['GET /api/v1/apps/{appId}/users', 'GET /api/v1/apps/{appId}/groups'];

  /** Sends `count` requests, alternating `keys`, each answered with the bucket's next `remaining` (others took `othersTook` first). */
  async function spend(sut: RateLimitGovernor, keys: string[], count: number, othersTook = 0): Promise<void> {
    for (let i = 1; i <= count; i++) {
      const key = keys[i % keys.length];
      const release = await sut.acquire(key);
      sut.observe(key, headers(100, 100 - othersTook - i, RESET));
      release();
    }
  }

  it("spends into the reserve down to the idle share while the window's answers are all ours, the endpoints of one bucket counted together", async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock, { idleHeadroom: 0.1, bucketOf: oktaRateLimitBucket });
    await spend(sut, apps, 90);
    expect(clock.sleeps).toEqual([]);
    await sut.acquire(apps[0]);
    expect(clock.sleeps).toEqual([40_000]);
  });

  it('spends into the reserve as the window passes, at the rate others left unused', async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock, { idleHeadroom: 0, windowMs: 60_000, bucketOf: oktaRateLimitBucket });
    const reset = T0 + 60_000;
    for (let i = 1; i <= 83; i++) {
      const release = await sut.acquire(apps[i % 2]);
      sut.observe(apps[i % 2], headers(100, 100 - i, reset));
      release();
    }
    // With 2 requests in flight at most (sent unseen): 20 free exceed the reserve 10 s into the
    // window, 19 after 13 s, 18 after 16 s.
    expect(clock.sleeps).toEqual([10_001, 3_000, 3_000]);
    expect(clock.nowMs).toBe(T0 + 16_001);
  });

  it('keeps the full reserve once another client spent a request of the window', async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock, { idleHeadroom: 0.1, bucketOf: oktaRateLimitBucket });
    await spend(sut, apps, 79, 1);
    expect(clock.sleeps).toEqual([]);
    await sut.acquire(apps[0]);
    expect(clock.sleeps).toEqual([40_000]);
  });

  it('keeps the full reserve without an idle share, as before', async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock, { bucketOf: oktaRateLimitBucket });
    await spend(sut, apps, 80);
    await sut.acquire(apps[0]);
    expect(clock.sleeps).toEqual([40_000]);
  });

  it("takes a shared bucket's other endpoints for another client's without bucketOf, and keeps the full reserve", async () => {
    const clock = new FakeClock(T0);
    const sut = governor(clock, { idleHeadroom: 0.1 });
    await spend(sut, apps, 80);
    await sut.acquire(apps[0]);
    expect(clock.sleeps).toEqual([40_000]);
  });

  it('wakes a request held for the reserve when a request in flight is answered and shows others idle', async () => {
    /** A clock whose sleeps end only when aborted: a request held until the reset never goes. */
    const stalled: GovernorClock = {
      now: () => T0,
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    };
    const sut = governor(new FakeClock(T0), {
      clock: stalled,
      maxConcurrency: 4,
      idleHeadroom: 0.1,
      bucketOf: oktaRateLimitBucket,
    });
    await spend(sut, apps, 78);
    const first = await sut.acquire(apps[0]);
    const second = await sut.acquire(apps[1]);
    // The second is answered first: the first's request is spent but not yet ours in the count.
    sut.observe(apps[1], headers(100, 20, RESET));
    second();
    let held = true;
    const third = sut.acquire(apps[0]).then((release) => ((held = false), release));
    await new Promise((resolve) => setImmediate(resolve));
    expect(held).toBe(true);
    sut.observe(apps[0], headers(100, 21, RESET));
    first();
    (await third)();
    expect(held).toBe(false);
  });
});
