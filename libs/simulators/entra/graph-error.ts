import type { Reply } from '@libs/simulators/kit/http/reply.js';

/**
 * An error Microsoft Graph answers, `{ "error": { "code", "message", "innerError" } }`
 * (Microsoft Graph "Error responses and resource types"), or, on the token endpoint, the
 * identity platform's OAuth error `{ error, error_description, error_codes }` (RFC 6749 §5.2;
 * Microsoft identity platform "client credentials flow", error response).
 */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** the OAuth form of a token endpoint error, with its AADSTS number */
    readonly oauth?: { aadsts: number },
    /** headers the answer carries besides Graph's own (a 410's `Location`) */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The error as a reply: Graph's envelope, or the OAuth body on the token endpoint. */
  reply(): Reply {
    const body = this.oauth
      ? {
          error: this.code,
          error_description: `AADSTS${this.oauth.aadsts}: ${this.message}`,
          error_codes: [this.oauth.aadsts],
        }
      : {
          error: {
            code: this.code,
            message: this.message,
            innerError: { date: new Date().toISOString().slice(0, 19), 'request-id': crypto.randomUUID() },
          },
        };
    const headers: Record<string, string> = {
      ...this.headers,
      ...(this.status === 401 && !this.oauth ? { 'WWW-Authenticate': 'Bearer realm=""' } : {}),
    };
    return { status: this.status, body: JSON.stringify(body), headers };
  }
}

/** 404 as Graph's directory answers an unknown object id (`Request_ResourceNotFound`). */
export function notFound(id: string): GraphError {
  return new GraphError(
    404,
    'Request_ResourceNotFound',
    `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`,
  );
}

/** 400 for a query option Graph refuses (`$top` out of range, an unknown `$skiptoken`). */
export function badRequest(message: string): GraphError {
  return new GraphError(400, 'BadRequest', message);
}
