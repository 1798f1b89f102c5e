import { HttpStatus, type INestApplication } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ApiError, ValidationError } from '@app/common/errors.js';
import { jsonNestsDeeperThan } from './json-depth.js';
import { unstorableTextPath } from './storable-text.js';

/** Largest JSON body the API accepts; bigger ones get 400 `validation_failed`. */
export const JSON_BODY_LIMIT = '100kb';

/**
 * Deepest nesting of arrays and objects a JSON body may have. The API's deepest body is two
 * levels (`{"include":["user"]}`); 32 leaves room for any future one while bounding every
 * recursive walk of a body (a 2,000-deep body overflowed the validation pipe's stack: docs/security.md
 * "Request validation").
 */
export const MAX_JSON_DEPTH = 32;

/** Paths whose routes take something other than JSON, and read their bodies themselves. */
export interface RequestEdgeOptions {
  /** Path prefixes of HTML form posts (`application/x-www-form-urlencoded`). */
  formPaths: readonly string[];
  /**
   * Routes that take a file's bytes as the body (`application/octet-stream`), at most `limit`
   * bytes. The edge does not read them: the route does, after the guards (UploadedBody), so an
   * anonymous or rate-limited caller's upload costs no memory. A declared `Content-Length` over
   * `limit` is refused here at once (413).
   */
  uploads?: ReadonlyArray<{ path: RegExp; limit: number }>;
}

/**
 * What every request to the API passes before routing, authentication or validation, so that
 * refusing it costs an anonymous caller's request nothing more than reading it:
 * 1. a body that is not `application/json` is a 415 (routes under `formPaths` excepted);
 * 2. the JSON body parser (100 KB), refusing a charset other than UTF-8 (RFC 8259 §8.1: 415)
 *    and nesting deeper than MAX_JSON_DEPTH (400) before parsing;
 * 3. a path, query parameter or JSON string holding text PostgreSQL cannot store (NUL, an
 *    unpaired surrogate) is a 400 naming the field, instead of a database error's 500;
 * 4. on an upload route, a `Content-Length` over its limit is a 413 before a byte is read
 *    (RFC 9110 §15.5.14); the body itself is left unread for the route.
 * No body is read before authentication but JSON's, bounded to JSON_BODY_LIMIT.
 * Errors go to the global exception filter, in the `{ error, code }` shape.
 */
export function installRequestEdge(app: INestApplication, options: RequestEdgeOptions): void {
  const uploads = options.uploads ?? [];
  const uploadOf = (req: Request) =>
    req.is('application/octet-stream') ? uploads.find(({ path }) => path.test(req.path)) : undefined;
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(takesForm(req.path, options.formPaths) || uploadOf(req) ? undefined : nonJsonBodyError(req));
  });
  for (const { path, limit } of uploads) {
    app.use((req: Request, res: Response, next: NextFunction) => {
      if (!path.test(req.path)) return next();
      res.once('finish', () => stopReadingUnreadBody(req));
      next(oversizedBodyError(req, limit));
    });
  }
  // express.json itself: Nest's useBodyParser keeps `verify` for its raw-body option.
  app.use(express.json({ limit: JSON_BODY_LIMIT, verify: verifyJsonText }));
  app.use((req: Request, _res: Response, next: NextFunction) => next(unstorableInputError(req)));
}

function takesForm(path: string, formPaths: readonly string[]): boolean {
  return formPaths.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** 415 for a non-empty body that is not JSON; a request without one is let through. */
function nonJsonBodyError(req: Request): ApiError | undefined {
  const empty = req.headers['content-length'] === '0';
  // req.is answers null when the request has no body at all.
  if (empty || req.is('application/json') !== false) return undefined;
  return new ApiError(
    HttpStatus.UNSUPPORTED_MEDIA_TYPE,
    'unsupported_media_type',
    'The body must be application/json',
  );
}

/**
 * How long the connection of a request answered before its body was read stays open after the
 * response, milliseconds: time for the client to read the answer before the connection closes.
 */
export const UNREAD_BODY_LINGER_MS = 2_000;

/**
 * After the response to a request whose body was not read to its end (401, 429, 413, 404...):
 * stops reading the body, so the rest waits in TCP's buffers and flow control holds the client
 * (Node would otherwise read and discard every byte still sent, up to the cap, each read a new
 * buffer), then closes the connection, which cannot serve another request (RFC 9112 §9.6).
 */
function stopReadingUnreadBody(req: Request): void {
  if (req.complete) return;
  // Node's server dumps an unread body when the response finishes (`_http_server` resOnFinish runs
  // before this listener): from then on every chunk the socket delivers is dropped unread, and the
  // request's next read restarts the socket (on Node 24 even once paused). The request stops
  // asking its socket for data and the socket stops reading.
  req._read = () => {};
  req.pause();
  req.socket.pause();
  setTimeout(() => req.socket.destroy(), UNREAD_BODY_LINGER_MS).unref();
}

/** 413 `payload_too_large` when the declared `Content-Length` is over `limit` bytes. */
function oversizedBodyError(req: Request, limit: number): ApiError | undefined {
  const declared = Number(req.headers['content-length']);
  if (!(declared > limit)) return undefined;
  return payloadTooLarge(limit);
}

/** 413 `payload_too_large` (RFC 9110 §15.5.14) for a body over `limit` bytes, in the spec's error shape. */
export function payloadTooLarge(limit: number): ApiError {
  const size = `${limit / 1048576} MB`;
  return new ApiError(
    HttpStatus.PAYLOAD_TOO_LARGE,
    'payload_too_large',
    `Request body too large (at most ${size})`,
    [{ field: 'body', message: `larger than ${size}` }],
  );
}

/** body-parser's `verify` hook: runs on the raw bytes, before JSON.parse. */
function verifyJsonText(_req: unknown, _res: unknown, body: Buffer, encoding: string): void {
  if (encoding.toLowerCase() !== 'utf-8') {
    throw new ApiError(
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
      'unsupported_media_type',
      'JSON must be UTF-8 (RFC 8259 §8.1)',
    );
  }
  if (jsonNestsDeeperThan(body, MAX_JSON_DEPTH)) {
    const message = `nested deeper than ${MAX_JSON_DEPTH} levels`;
    throw new ValidationError(`JSON body ${message}`, [{ field: 'body', message }]);
  }
}

function unstorableInputError(req: Request): ValidationError | undefined {
  let path: string;
  try {
    path = decodeURIComponent(req.path);
  } catch {
    return unstorable('path', 'is not percent-encoded UTF-8');
  }
  // An uploaded file's bytes are the route's to validate, not text fields.
  const body: unknown = Buffer.isBuffer(req.body) ? undefined : req.body;
  const field =
    unstorableTextPath(path) === undefined
      ? (unstorableTextPath(req.query) ?? unstorableTextPath(body))
      : 'path';
  return field === undefined ? undefined : unstorable(field, 'must not contain NUL or an unpaired surrogate');
}

function unstorable(field: string, problem: string): ValidationError {
  const message = `${field} ${problem}`;
  return new ValidationError(message, [{ field, message }]);
}
