import { type CanActivate, type ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Actor } from '@app/common/actor.js';
import { IS_PUBLIC, REQUIRED_PERMISSION } from '@app/common/decorators.js';
import { ForbiddenError, UnauthorizedError } from '@app/common/errors.js';
import { type Permission, roleHasPermission } from '@app/common/permission.js';
import { AUTH_STRATEGIES, type AuthRequest, type AuthStrategy } from './auth-strategy.js';

/**
 * The global guard (STYLE "Access control"), deny by default:
 * - a route with `@RequirePermission(p)` (handler or class) needs an authenticated caller
 *   (401 otherwise) whose team role grants `p` (403 otherwise, DESIGN section 3);
 * - a route with only `@Public()` is open;
 * - a route with neither is a programming error: logged and refused with 403, never open.
 * A permission wins over `@Public()`, so a public controller cannot open a protected handler.
 * On success the caller is `request.actor` (see `@CurrentActor()`).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly logger = new Logger(AuthGuard.name);

  constructor(
    private readonly reflector: Reflector,
    @Inject(AUTH_STRATEGIES) private readonly strategies: AuthStrategy[],
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const permission = this.reflector.getAllAndOverride<Permission | undefined>(REQUIRED_PERMISSION, targets);
    if (!permission) {
      if (this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets)) return true;
      this.logger.error(
        `${context.getClass().name}.${context.getHandler().name} has neither @Public() nor @RequirePermission(); refusing it`,
      );
      throw new ForbiddenError('This route is not available');
    }

    const request = context.switchToHttp().getRequest<AuthRequest>();
    request.actor = await this.authenticate(request);
    if (!roleHasPermission(request.actor.role, permission)) {
      throw new ForbiddenError(`Your role does not allow this action (needs "${permission}")`);
    }
    return true;
  }

  private async authenticate(request: AuthRequest): Promise<Actor> {
    for (const strategy of this.strategies) {
      const actor = await strategy.authenticate(request);
      if (actor) return actor;
    }
    throw new UnauthorizedError();
  }
}
