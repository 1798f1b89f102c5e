import type { ThrottlerStorage } from '@nestjs/throttler';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { MemoryRateLimitStorage } from './memory-rate-limit.storage.js';

/** Injection token of the rate-limit counters (a @nestjs/throttler `ThrottlerStorage`). */
export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');

/**
 * Counters in Redis when REDIS_URL is set (shared by replicas), else in this process's memory.
 * ioredis is loaded only in the first case.
 */
export async function createRateLimitStorage(config: AppConfig): Promise<ThrottlerStorage> {
  if (!config.REDIS_URL) return new MemoryRateLimitStorage();
  const { RedisRateLimitStorage } = await import('./redis-rate-limit.storage.js');
  return new RedisRateLimitStorage(config.REDIS_URL, config.RATE_LIMIT_KEY_PREFIX);
}
