import type { IncomingHttpHeaders } from 'node:http';
import type { Actor } from '@app/common/actor.js';

/** The parts of an HTTP request authentication looks at, and what it records on it. */
export interface AuthRequest {
  /** Upper-case HTTP method. */
  method: string;
  headers: IncomingHttpHeaders;
  /** Path and query as received (Express). */
  originalUrl: string;
  /** The parsed JSON body, when there is one. */
  body?: unknown;
  /** Read by the exception filter: a 401 after a bearer token says `error="invalid_token"`. */
  hadBearerToken?: boolean;
  actor?: Actor;
}

/**
 * One way of authenticating a request: a bearer token, or the web application's session
 * cookie. The guard asks each strategy in turn.
 */
export interface AuthStrategy {
  /**
   * @returns the actor when this strategy's credentials are present and valid; undefined when
   *   they are absent (the next strategy is asked).
   * @throws UnauthorizedError when credentials of this kind are present but not acceptable.
   */
  authenticate(request: AuthRequest): Promise<Actor | undefined>;
}

/** Injection token of the ordered AuthStrategy list. */
export const AUTH_STRATEGIES = Symbol('AUTH_STRATEGIES');
