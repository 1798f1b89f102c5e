/** Base of every error a connector throws; `code` is a stable machine string. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The provider refused the credentials or a scope (OAuth 2.0 token endpoint error, RFC 6749 §5.2). */
export class ProviderAuthError extends ProviderError {
  constructor(message: string) {
    super(message, 'provider_auth_failed');
  }
}

/** A URL's host is not on the allow-list of provider hosts (SSRF guard). */
export class ProviderHostNotAllowedError extends ProviderError {
  constructor(host: string) {
    super(`Host ${host} is not an allowed provider host`, 'provider_host_not_allowed');
  }
}

/**
 * A read of the provider's audit log from before the oldest record it keeps (Okta's System Log:
 * 90 days; Entra's directory audit: 7 days, 30 with Entra ID P1 or P2): what happened between
 * the instant asked for and `heldSince` can no longer be read.
 */
export class LogWindowExceededError extends ProviderError {
  constructor(
    message: string,
    code: 'since_too_old' | 'cursor_expired',
    /** the oldest instant the log still holds (ISO 8601) */
    readonly heldSince: string,
  ) {
    super(message, code);
  }
}

/** The provider answered an error that retries could not cure. */
export class ProviderRequestError extends ProviderError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message, 'provider_request_failed');
  }
}

/**
 * True when a write's answer may have been lost after the provider carried it out: a 5xx, or a
 * connection dropped or cut before the whole answer came (`provider_unreachable`). A creation that
 * failed so may exist: look for it before creating it again.
 */
export function answerMayBeLost(error: unknown): boolean {
  if (error instanceof ProviderRequestError) return error.status >= 500;
  return error instanceof ProviderError && error.code === 'provider_unreachable';
}
