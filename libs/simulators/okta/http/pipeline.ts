import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { authenticate } from '@libs/simulators/okta/auth/authenticator.js';
import type { CredentialStore } from '@libs/simulators/okta/auth/credential-store.js';
import { type RequestCaller, requestCallers } from '@libs/simulators/okta/auth/request-caller.js';
import type { RateLimitDecision, RateLimiter } from '@libs/simulators/okta/rate-limit/rate-limiter.js';
import type { FaultInjector } from '@libs/simulators/kit/http/faults.js';
import { OktaError, tooManyRequests } from './okta-error.js';
import type { Reply } from '@libs/simulators/kit/http/reply.js';
import type { RequestLog } from './request-log.js';
import type { RequestContext, Router } from '@libs/simulators/kit/http/router.js';

export interface PipelineDependencies {
  router: Router;
  credentials: CredentialStore;
  rateLimiter: RateLimiter;
  requestLog: RequestLog;
  faults: FaultInjector;
  baseUrl: string;
  /** Called with errors that are not Okta errors (bugs), before answering 500. */
  onInternalError(error: unknown): void;
}

/** Request bodies above this size are refused (Okta objects are small). */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * The request pipeline: read body -> match route -> count against the rate-limit bucket
 * (429 E0000047 past it) -> authenticate -> handler -> faults -> write. Every step that can
 * refuse throws an {@link OktaError}; everything is recorded in the request log under the
 * route's OpenAPI template. Faults (latency, 5xx, dropped connections, truncated bodies) are
 * drawn once per request after routing, so that the log and rate limits still see the call.
 */
export function createRequestHandler(
  deps: PipelineDependencies,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((error: unknown) => {
      deps.onInternalError(error);
      res.destroy();
    });
  };
}

async function handle(deps: PipelineDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', deps.baseUrl);
  const bodyText = await readBody(req);
  const match = deps.router.match(method, url.pathname);
  const template = match.kind === 'found' ? match.route.template : url.pathname;
  const bucket = `${method} ${template}`;
  const fault = deps.faults.next(bucket);
  const taken = deps.rateLimiter.take(method, template);
  const limit =
    fault === 'throttle'
      ? { ...taken, limited: true, remaining: 0, reset: deps.faults.burstResetSeconds(bucket) }
      : taken;
  if (deps.faults.latencyMs > 0) await sleep(deps.faults.latencyMs);

  let reply: Reply;
  try {
    if (limit.limited) throw tooManyRequests();
    if (fault === 'error') throw new OktaError(500, 'E0000009', 'Internal Server Error');
    if (match.kind === 'not-found') throw new OktaError(404, 'E0000008', 'The requested path was not found');
    if (match.kind === 'method-not-allowed')
      throw new OktaError(405, 'E0000022', 'The endpoint does not support the provided HTTP method');
    const context: RequestContext = { method, url, params: match.params, headers: req.headers, bodyText };
    const who: RequestCaller['who'] =
      match.route.access.kind === 'admin'
        ? authenticate(deps.credentials, req.headers, match.route.access.scopes, {
            baseUrl: deps.baseUrl,
            path: url.pathname,
          })
        : { kind: 'user', userId: null };
    const caller: RequestCaller = {
      who,
      ipAddress: req.socket.remoteAddress ?? '127.0.0.1',
      userAgent: req.headers['user-agent'] ?? 'unknown',
    };
    const route = match.route;
    reply = await requestCallers.run(caller, () => route.handle(context));
  } catch (error) {
    if (!(error instanceof OktaError)) deps.onInternalError(error);
    reply = errorReply(error);
  }
  deps.requestLog.record(method, match.kind === 'found' ? template : 'unmatched', reply.status);
  if (fault === 'drop') {
    res.destroy();
    return;
  }
  write(res, reply, limit, fault === 'truncate');
}

function errorReply(error: unknown): Reply {
  const okta = error instanceof OktaError ? error : new OktaError(500, 'E0000009', 'Internal Server Error');
  return { status: okta.status, body: JSON.stringify(okta.body()), headers: okta.headers };
}

function write(res: ServerResponse, reply: Reply, limit: RateLimitDecision, truncate: boolean): void {
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
  res.writeHead(reply.status, {
    ...(body ? { 'Content-Type': 'application/json', 'Content-Length': String(body.length) } : {}),
    'X-Rate-Limit-Limit': String(limit.limit),
    'X-Rate-Limit-Remaining': String(limit.remaining),
    'X-Rate-Limit-Reset': String(limit.reset),
    ...reply.headers,
  });
  if (truncate && body) {
    // Announce the full length, send half, then cut the connection: the client sees a short body.
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
    return;
  }
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('Request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
