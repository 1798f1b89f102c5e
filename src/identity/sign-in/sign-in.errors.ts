import { HttpStatus } from '@nestjs/common';
import { ApiError, RetryLaterError } from '@app/common/errors.js';

/** 401 `invalid_code`: wrong, expired, used or voided; the four are not told apart. */
export class InvalidCodeError extends ApiError {
  constructor() {
    super(HttpStatus.UNAUTHORIZED, 'invalid_code', 'The code is wrong or no longer valid; ask for a new one');
  }
}

/** 403 `no_team`: the person proved their address, but it belongs to no team and none was invited. */
export class NoTeamError extends ApiError {
  constructor() {
    super(
      HttpStatus.FORBIDDEN,
      'no_team',
      'This address is not a member of any team; ask your administrator for an invitation',
    );
  }
}

/**
 * 429 `rate_limited`: the address's code budget is spent, with `Retry-After` (as the API's limiter).
 * @param retryAfterSeconds seconds until the address may be sent another code
 */
export class CodeBudgetSpentError extends RetryLaterError {
  constructor(retryAfterSeconds: number) {
    super(
      HttpStatus.TOO_MANY_REQUESTS,
      'rate_limited',
      'Too many codes were sent to this address; try again later',
      retryAfterSeconds,
    );
  }
}

/** 503 `mail_unavailable`: the SMTP server refused or could not be reached. */
export class MailUnavailableError extends ApiError {
  constructor() {
    super(
      HttpStatus.SERVICE_UNAVAILABLE,
      'mail_unavailable',
      'The sign-in e-mail could not be sent; try again later',
    );
  }
}

/** 400 `sign_in_failed`: an identity provider sign-in could not be completed (reason in the message). */
export class SignInFailedError extends ApiError {
  constructor(message: string) {
    super(HttpStatus.BAD_REQUEST, 'sign_in_failed', message);
  }
}
