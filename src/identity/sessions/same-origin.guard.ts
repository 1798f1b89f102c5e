import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ForbiddenError } from '@app/common/errors.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { readCookie } from './host-cookie.js';
import { isTrustedOrigin, isUnsafeMethod, UNTRUSTED_ORIGIN_MESSAGE } from './same-origin.js';
import { SESSION_COOKIE } from './sessions.service.js';

/**
 * CSRF guard of the public routes that set or use the session cookie (sign-in, sign-out, the
 * consent pages): an unsafe request that carries an `Origin` header, or the session cookie,
 * must come from BASE_URL's origin or an allowed console origin (CONSOLE_ORIGINS; 403 otherwise). Browsers send `Origin` on every form or
 * fetch POST, so a cross-site page cannot sign someone in or out; a script or CLI without
 * cookies and without `Origin` is not a CSRF vector and passes.
 */
@Injectable()
export class SameOriginGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (!isUnsafeMethod(request.method)) return true;
    const { origin, cookie } = request.headers;
    if (origin === undefined && readCookie(cookie, SESSION_COOKIE) === undefined) return true;
    if (isTrustedOrigin(origin, this.config)) return true;
    throw new ForbiddenError(UNTRUSTED_ORIGIN_MESSAGE);
  }
}
