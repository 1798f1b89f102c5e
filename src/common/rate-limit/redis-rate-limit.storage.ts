import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import { fixedWindowRecord, type ThrottlerStorageRecord } from './fixed-window.js';

/**
 * One round trip, atomic (Redis runs a script without interleaving other commands): count the
 * hit, start the window on the first one, and report the hits and the window's remaining ms.
 * The PTTL check also repairs a key left without expiry (e.g. written by an interrupted
 * older version), which would otherwise block its client for good.
 */
const INCREMENT_SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}
`;

/** Longest wait for Redis per request, ms: past it the limiter lets the request through (see the guard). */
const COMMAND_TIMEOUT_MS = 1000;

type ScriptedRedis = Redis & { rateLimitIncrement(key: string, ttlMs: number): Promise<[number, number]> };

/**
 * Fixed-window counters in Redis (REDIS_URL), shared by every replica so the per-IP limits hold
 * across the fleet. Keys are `<prefix><key>` and expire with their window. The connection opens
 * at the first request (a `worker` process never opens one); while Redis is unreachable each
 * call fails within COMMAND_TIMEOUT_MS instead of queueing.
 */
export class RedisRateLimitStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger(RedisRateLimitStorage.name);
  private readonly redis: ScriptedRedis;
  private lastErrorLog = 0;

  /**
   * @param url `redis://` or `rediss://` (TLS) URL, credentials included when needed.
   * @param keyPrefix namespace of this service's keys (RATE_LIMIT_KEY_PREFIX).
   */
  constructor(
    url: string,
    private readonly keyPrefix: string,
  ) {
    this.redis = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2000,
    }) as ScriptedRedis;
    this.redis.defineCommand('rateLimitIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
    // Without a listener, ioredis reports every failed reconnect on stderr; one line a minute is enough.
    this.redis.on('error', (error: Error) => {
      if (Date.now() - this.lastErrorLog < 60_000) return;
      this.lastErrorLog = Date.now();
      this.logger.error(`Redis for rate limits is unreachable: ${error.message}`);
    });
  }

  /** @param ttl window length, ms; `blockDuration` is ignored: a blocked key waits for its window to end. */
  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const [hits, msLeft] = await this.redis.rateLimitIncrement(this.keyPrefix + key, ttl);
    return fixedWindowRecord(hits, msLeft, limit);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status === 'wait' || this.redis.status === 'end') return;
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
