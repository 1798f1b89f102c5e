import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { createRateLimitStorage, RATE_LIMIT_STORAGE } from './rate-limit.storage.js';

/**
 * Per-IP rate limits of the spec's Limits section (docs/security.md "Rate limits"). Import it
 * before AuthModule: global guards run in module order, and limits must apply before
 * authentication. Exports the counters for limits outside Nest's routing (e.g. the
 * authorization server's endpoints).
 */
@Module({
  providers: [
    { provide: RATE_LIMIT_STORAGE, useFactory: createRateLimitStorage, inject: [APP_CONFIG] },
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
  exports: [RATE_LIMIT_STORAGE],
})
export class RateLimitModule {}
