import { HttpException, HttpStatus } from '@nestjs/common';

/** Extra detail a client can act on, e.g. the fields that failed validation. */
export type ErrorDetails = Record<string, unknown> | Array<Record<string, unknown>>;

/**
 * An error with the spec's shape `{ error, code?, details? }` (spec "Errors", DESIGN section 4).
 * Services throw these (or Nest's own exceptions, which the filter maps to the same shape).
 */
export class ApiError extends HttpException {
  /**
   * @param fields further top-level members of the body, where the spec names them (402's `limit`
   *   and `plan`, docs/account.md)
   */
  constructor(
    status: HttpStatus,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetails,
    fields?: Record<string, string | number>,
  ) {
    super({ error: message, code, ...(details ? { details } : {}), ...(fields ? { fields } : {}) }, status);
    this.message = message;
  }
}

/** 404 for a resource that is missing or belongs to another team: the two are indistinguishable. */
export class NotFoundError extends ApiError {
  constructor(what: string) {
    super(HttpStatus.NOT_FOUND, 'not_found', `${what} not found`);
  }
}

export class ValidationError extends ApiError {
  constructor(message: string, details?: ErrorDetails) {
    super(HttpStatus.BAD_REQUEST, 'validation_failed', message, details);
  }
}

export class ConflictError extends ApiError {
  constructor(code: string, message: string) {
    super(HttpStatus.CONFLICT, code, message);
  }
}

export class ForbiddenError extends ApiError {
  constructor(message = 'Your role does not allow this action') {
    super(HttpStatus.FORBIDDEN, 'forbidden', message);
  }
}

/** 401; the filter adds `WWW-Authenticate: Bearer resource_metadata="..."` (RFC 6750 §3, RFC 9728 §5.1). */
export class UnauthorizedError extends ApiError {
  constructor(message = 'Missing, expired or invalid bearer token') {
    super(HttpStatus.UNAUTHORIZED, 'unauthorized', message);
  }
}

/**
 * An error that tells the caller when to try again: the exception filter sends
 * `retryAfterSeconds` as `Retry-After` (RFC 9110 §10.2.3) beside the body.
 */
export abstract class RetryLaterError extends ApiError {
  /**
   * @param retryAfterSeconds whole seconds until a retry can succeed
   */
  constructor(
    status: HttpStatus,
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(status, code, message);
  }
}

/**
 * 429 `rate_limited` (spec "Errors", "Limits"), with `Retry-After`.
 * @param retryAfterSeconds seconds until the caller's window ends.
 */
export class RateLimitedError extends RetryLaterError {
  constructor(retryAfterSeconds: number) {
    super(
      HttpStatus.TOO_MANY_REQUESTS,
      'rate_limited',
      `Too many requests; retry in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    );
  }
}
