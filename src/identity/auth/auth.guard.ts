import { type ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  AUTHENTICATION_ONLY,
  IS_PUBLIC,
  REQUIRED_PERMISSION,
  STATE_CHANGING_GET,
} from '@app/common/decorators.js';
import { ForbiddenError } from '@app/common/errors.js';
import { type Permission, roleHasPermission } from '@app/common/permission.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { isCrossSiteCookieRequest } from '@app/identity/sessions/same-origin.js';
import { PassportVerdictGuard } from './passport-verdict.guard.js';
import { AUTH_STRATEGY_NAMES, type AuthRequest, type AuthStrategyNames } from './auth-strategy.js';
import { withOrigin } from './request-origin.js';

/**
 * The global guard (STYLE "Access control"), deny by default:
 * - a route with `@RequirePermission(p)` (handler or class) needs an authenticated caller
 *   (401 otherwise) whose team role grants `p` (403 otherwise, DESIGN section 3);
 * - a route with `@RequireAuthentication()` needs an authenticated caller, whatever the role;
 * - a route with only `@Public()` is open;
 * - a route with neither is a programming error: logged and refused with 403, never open.
 * A permission wins over `@Public()`, so a public controller cannot open a protected handler.
 * A `@StateChangingGet()` route refuses a cookie-authenticated request another site started (403).
 * The caller is found by passport, asking the application's strategies in turn (bearer token,
 * then session cookie; see AuthStrategyNames); on success it is `request.actor` (see
 * `@CurrentActor()`), with the request's origin (client address and request id) for the audit
 * trail; the request id is the caller's `X-Request-Id` when it is a short token, else a new one,
 * and is echoed in the response's `X-Request-Id`.
 */
@Injectable()
export class AuthGuard extends PassportVerdictGuard {
  private readonly logger = new Logger(AuthGuard.name);

  constructor(
    private readonly reflector: Reflector,
    @Inject(AUTH_STRATEGY_NAMES) names: AuthStrategyNames,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super({ defaultStrategy: [names.bearerToken, names.sessionCookie], property: 'actor', session: false });
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const permission = this.reflector.getAllAndOverride<Permission | undefined>(REQUIRED_PERMISSION, targets);
    const flag = (key: string) =>
      this.reflector.getAllAndOverride<boolean | undefined>(key, targets) === true;
    if (!permission && !flag(AUTHENTICATION_ONLY)) {
      if (flag(IS_PUBLIC)) return true;
      this.logger.error(
        `${context.getClass().name}.${context.getHandler().name} has neither @Public() nor @RequirePermission(); refusing it`,
      );
      throw new ForbiddenError('This route is not available');
    }

    await super.canActivate(context);
    const request = context.switchToHttp().getRequest<AuthRequest>();
    const actor = request.actor!;
    if (flag(STATE_CHANGING_GET) && isCrossSiteCookieRequest(request.headers)) {
      throw new ForbiddenError(
        'Refused: this request changes state and was started by another site; start it from the console',
      );
    }
    if (permission && !roleHasPermission(actor.role, permission)) {
      throw new ForbiddenError(`Your role does not allow this action (needs "${permission}")`);
    }
    request.actor = withOrigin(context, actor, this.config);
    return true;
  }
}
