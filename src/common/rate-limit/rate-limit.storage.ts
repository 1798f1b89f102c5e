import type { ThrottlerStorage } from '@nestjs/throttler';
import type { AppConfig } from '../../config/app-config.js';
import { MemoryRateLimitStorage } from './memory-rate-limit.storage.js';
import { RedisRateLimitStorage } from './redis-rate-limit.storage.js';

/** Injection token of the rate-limit counters (a @nestjs/throttler `ThrottlerStorage`). */
export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');

/** Counters in Redis when REDIS_URL is set (shared by replicas), else in this process's memory. */
export function createRateLimitStorage(config: AppConfig): ThrottlerStorage {
  return config.REDIS_URL
    ? new RedisRateLimitStorage(config.REDIS_URL, config.RATE_LIMIT_KEY_PREFIX)
    : new MemoryRateLimitStorage();
}
