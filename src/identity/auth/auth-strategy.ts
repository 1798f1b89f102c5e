import type { IncomingHttpHeaders } from 'node:http';
import { randomUUID } from 'node:crypto';
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
 * The passport names of one application's ways in: for the API the bearer token, then the
 * session cookie, asked in this order; for the MCP endpoint its own bearer token. passport keeps strategies in one registry per process, so each
 * application's names carry its own id: two applications in one process (the e2e suites,
 * replicas) must never authenticate with each other's keys or database.
 */
export interface AuthStrategyNames {
  bearerToken: string;
  sessionCookie: string;
  /** The MCP endpoint's only way in: a bearer token for its own resource (mcp-token.strategy.ts). */
  mcpToken: string;
}

/** Injection token of the application's {@link AuthStrategyNames}. */
export const AUTH_STRATEGY_NAMES = Symbol('AUTH_STRATEGY_NAMES');

/** Fresh {@link AuthStrategyNames} for one application. */
export function newAuthStrategyNames(): AuthStrategyNames {
  const id = randomUUID();
  return {
    bearerToken: `bearer-token:${id}`,
    sessionCookie: `session-cookie:${id}`,
    mcpToken: `mcp-token:${id}`,
  };
}
