import type { ExecutionContext } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { resolveClientIp } from '@app/common/rate-limit/client-ip.js';
import { requestIdFrom } from '@app/common/request-log/request-id.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import type { AuthRequest } from './auth-strategy.js';

/** The request's socket, whose peer is the client unless proxies stand in front (client-ip.ts). */
export interface SocketRequest {
  socket: { remoteAddress?: string };
}

/**
 * `actor` with the origin of the guarded request for the audit trail: the client address as rate
 * limits see it (TRUST_PROXY_HOPS) and the request id, which is the caller's `X-Request-Id` when
 * it is a short token, else a new one, echoed in the response's `X-Request-Id`.
 */
export function withOrigin<TActor extends Actor>(
  context: ExecutionContext,
  actor: TActor,
  config: Pick<AppConfig, 'TRUST_PROXY_HOPS'>,
): TActor {
  const request = context.switchToHttp().getRequest<AuthRequest & SocketRequest>();
  const requestId = requestIdFrom(request.headers['x-request-id']);
  const ip = resolveClientIp(
    request.socket.remoteAddress,
    request.headers['x-forwarded-for'],
    config.TRUST_PROXY_HOPS,
  );
  context
    .switchToHttp()
    .getResponse<{ setHeader(name: string, value: string): void }>()
    .setHeader('X-Request-Id', requestId);
  return { ...actor, origin: { ip, requestId } };
}
