import { HttpStatus } from '@nestjs/common';
import { RetryLaterError } from '@app/common/errors.js';

/**
 * 429 `export_rate_limited`: the team had its one successful export of the last 7 days, or one
 * is being read now (spec "Limits"), with `Retry-After`.
 */
export class ExportRateLimitedError extends RetryLaterError {
  constructor(retryAfterSeconds: number) {
    super(
      HttpStatus.TOO_MANY_REQUESTS,
      'export_rate_limited',
      `One account export per 7 days; the next is allowed in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    );
  }
}
