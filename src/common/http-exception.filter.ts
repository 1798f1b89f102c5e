import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { ApiError, RetryLaterError } from './errors.js';
import type { Actor } from './actor.js';

/** The machine `code` of each status when the thrower gave none (DESIGN section 4). */
export const DEFAULT_CODES: Readonly<Record<number, string>> = {
  400: 'validation_failed',
  401: 'unauthorized',
  402: 'plan_limit_exceeded',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'service_unavailable',
};

/** body-parser's error `type`, whether Nest wrapped the error (as the `cause` of a 400) or not. */
function bodyParserError(exception: unknown): string | undefined {
  const candidate = exception instanceof HttpException ? exception.cause : exception;
  const type = (candidate as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' && (type.startsWith('entity.') || type === 'request.aborted')
    ? type
    : undefined;
}

/** The JSON body parser's limit (request-edge.ts JSON_BODY_LIMIT), bytes. */
const JSON_BODY_LIMIT_BYTES = 100 * 1024;

/** The byte limit a body parser refused a body over (body-parser's `limit` on its error). */
function bodyLimit(exception: unknown): number {
  const candidate = exception instanceof HttpException ? exception.cause : exception;
  const limit = (candidate as { limit?: unknown } | undefined)?.limit;
  return typeof limit === 'number' ? limit : JSON_BODY_LIMIT_BYTES;
}

/**
 * The error itself, or the ApiError inside it: one thrown by body-parser's `verify` hook
 * (request-edge.ts) reaches the filter as the `cause` of the HttpException Nest's Express
 * adapter makes of every http-errors error.
 */
function unwrapApiError(exception: unknown): unknown {
  return exception instanceof HttpException && exception.cause instanceof ApiError
    ? exception.cause
    : exception;
}

/**
 * The one exception filter (STYLE "Errors"): every error leaves as `{ error, code?, details? }`
 * with the spec's status and an `X-Request-Id`; a RetryLaterError carries `Retry-After`; 401s carry `WWW-Authenticate` naming the
 * protected-resource metadata of the resource the request's path belongs to (RFC 6750 §3, RFC 9728 §5.1); unknown errors are logged once
 * and answered 500 with no stack and no secret.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  /** @param resourceMetadataUrl the RFC 9728 metadata URL of the protected resource holding a request path */
  constructor(private readonly resourceMetadataUrl: (path: string) => string) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request & { hadBearerToken?: boolean; actor?: Actor }>();
    const response = http.getResponse<Response>();
    // The auth guard's id when it ran (the one the audit trail records), else the caller's, else a new one.
    const requestId =
      request.actor?.origin?.requestId ??
      (request.headers['x-request-id'] as string | undefined) ??
      randomUUID();
    const error = unwrapApiError(exception);
    const { status, body } = this.toBody(error, requestId);

    response.setHeader('X-Request-Id', requestId);
    if (error instanceof RetryLaterError) response.setHeader('Retry-After', error.retryAfterSeconds);
    if (status === HttpStatus.UNAUTHORIZED) {
      const tokenError = request.hadBearerToken ? ', error="invalid_token"' : '';
      response.setHeader(
        'WWW-Authenticate',
        `Bearer resource_metadata="${this.resourceMetadataUrl(request.path)}"${tokenError}`,
      );
    }
    response.status(status).json(body);
  }

  private toBody(exception: unknown, requestId: string): { status: number; body: Record<string, unknown> } {
    const parserError = bodyParserError(exception);
    if (parserError === 'entity.too.large') {
      // docs/security.md: oversized bodies are a 400, like every other invalid request.
      const upload = bodyLimit(exception) !== JSON_BODY_LIMIT_BYTES;
      const size = upload ? `${bodyLimit(exception) / 1048576} MB` : '100 KB';
      return {
        status: 400,
        body: {
          error: `Request body too large (at most ${size}${upload ? '' : ' of JSON'})`,
          code: 'validation_failed',
          details: [{ field: 'body', message: `larger than ${size}` }],
          requestId,
        },
      };
    }
    // raw-body's `request.aborted` (status 400): the client closed the connection while sending its
    // body. Nothing reaches it, and it is not the service's error, so it is not logged as one.
    if (parserError === 'request.aborted')
      return {
        status: 400,
        body: { error: 'Request aborted by the client', code: 'validation_failed', requestId },
      };
    if (parserError === 'entity.parse.failed') {
      return { status: 400, body: { error: 'Malformed JSON body', code: 'validation_failed', requestId } };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const raw = exception.getResponse();
      const shaped = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
      const error =
        typeof shaped.error === 'string' && typeof shaped.code === 'string'
          ? shaped.error
          : typeof shaped.message === 'string'
            ? shaped.message
            : exception.message;
      const code = typeof shaped.code === 'string' ? shaped.code : (DEFAULT_CODES[status] ?? 'error');
      const fields = typeof shaped.fields === 'object' && shaped.fields !== null ? shaped.fields : {};
      return {
        status,
        body: { error, code, ...fields, ...(shaped.details ? { details: shaped.details } : {}), requestId },
      };
    }
    this.logger.error(
      `Unhandled error (request ${requestId})`,
      exception instanceof Error ? exception.stack : String(exception),
    );
    return { status: 500, body: { error: 'Internal server error', code: 'internal_error', requestId } };
  }
}
