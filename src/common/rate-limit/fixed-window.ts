import type { ThrottlerStorage } from '@nestjs/throttler';

/** What a ThrottlerStorage reports per increment (the type is not exported by @nestjs/throttler's index). */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * The record @nestjs/throttler expects, for a fixed window: `hits` requests counted so far in a
 * window that ends in `msLeft` ms. Over `limit`, the caller is blocked until the window ends.
 * Times are whole seconds, rounded up (they feed `Retry-After` and `RateLimit-Reset`).
 */
export function fixedWindowRecord(hits: number, msLeft: number, limit: number): ThrottlerStorageRecord {
  const secondsLeft = Math.max(1, Math.ceil(msLeft / 1000));
  const isBlocked = hits > limit;
  return {
    totalHits: hits,
    timeToExpire: secondsLeft,
    isBlocked,
    timeToBlockExpire: isBlocked ? secondsLeft : 0,
  };
}
