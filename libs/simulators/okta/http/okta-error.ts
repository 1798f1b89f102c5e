import { cryptoRandom, ID_PREFIX, oktaId } from '@libs/simulators/okta/store/okta-ids.js';

/** The body of every Okta Management API error (OpenAPI `#/components/schemas/Error`). */
export interface OktaErrorBody {
  errorCode: string;
  errorSummary: string;
  errorLink: string;
  errorId: string;
  errorCauses: Array<{ errorSummary: string }>;
}

/**
 * An error answered the way Okta answers it: status plus `{ errorCode, errorSummary, errorLink,
 * errorId, errorCauses }`. Codes and summaries come from Okta's error code list
 * (developer.okta.com/docs/reference/error-codes) and the OpenAPI examples.
 */
export class OktaError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    readonly errorSummary: string,
    readonly causes: string[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(`${status} ${errorCode}: ${errorSummary}`);
  }

  body(): OktaErrorBody {
    return {
      errorCode: this.errorCode,
      errorSummary: this.errorSummary,
      errorLink: this.errorCode,
      errorId: oktaId(ID_PREFIX.errorId, cryptoRandom, 25),
      errorCauses: this.causes.map((errorSummary) => ({ errorSummary })),
    };
  }
}

/** 400 E0000001 "Api validation failed: {field}", causes in Okta's `field: message` form. */
export function validationFailed(field: string, ...causes: string[]): OktaError {
  return new OktaError(400, 'E0000001', `Api validation failed: ${field}`, causes);
}

/** 404 E0000007 "Not found: Resource not found: {id} ({Kind})", as recorded from real orgs. */
export function notFound(id: string, kind: string): OktaError {
  return new OktaError(404, 'E0000007', `Not found: Resource not found: ${id} (${kind})`);
}

/** 401 E0000011: missing, unknown or expired token. */
export function invalidToken(): OktaError {
  return new OktaError(401, 'E0000011', 'Invalid token provided');
}

/** 403 E0000006: authenticated, but not allowed (e.g. an access token without the scope). */
export function accessDenied(headers: Record<string, string> = {}): OktaError {
  return new OktaError(
    403,
    'E0000006',
    'You do not have permission to perform the requested action',
    [],
    headers,
  );
}

/**
 * 401 E0000015 "You do not have permission to access the feature you are requesting": the org
 * lacks the feature the API belongs to (its edition). Recorded so from a real org without API
 * Access Management (../shared/fixtures/okta/vcr, classic-00: `POST /api/v1/authorizationServers`,
 * `GET /api/v1/authorizationServers/default`); management.yaml `Error-FF-NotEnabled-Response-401`.
 */
export function featureNotEnabled(): OktaError {
  return new OktaError(
    401,
    'E0000015',
    'You do not have permission to access the feature you are requesting',
  );
}

/** 400 E0000031: a `filter` or `search` expression the simulator cannot parse. */
export function invalidSearch(detail: string): OktaError {
  return new OktaError(400, 'E0000031', 'Invalid search criteria.', [detail]);
}

/** 429 E0000047, Okta's rate-limit error (OpenAPI `ErrorTooManyRequests`). */
export function tooManyRequests(): OktaError {
  return new OktaError(429, 'E0000047', 'API call exceeded rate limit due to too many requests.');
}
