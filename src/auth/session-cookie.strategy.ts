import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { ForbiddenError, UnauthorizedError } from '@app/common/errors.js';
import type { AppConfig } from '@app/config/app-config.js';
import { APP_CONFIG } from '@app/config/config.module.js';
import { isSameOrigin, isUnsafeMethod } from '@app/sessions/same-origin.js';
import { SessionsService } from '@app/sessions/sessions.service.js';
import { TeamsService } from '@app/teams/teams.service.js';
import type { AuthRequest, AuthStrategy } from './auth-strategy.js';

/**
 * The web application's session cookie (spec "Authentication" item 1, second way). Asked only
 * when the request has no `Authorization` header: a request that has one is judged by it alone.
 * The person acts with their current role in the session's team. A cookie-authenticated
 * POST/PUT/PATCH/DELETE must also carry `Origin` equal to BASE_URL's origin (CSRF), else 403.
 */
@Injectable()
export class SessionCookieStrategy implements AuthStrategy {
  constructor(
    private readonly sessions: SessionsService,
    private readonly teams: TeamsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async authenticate(request: AuthRequest): Promise<Actor | undefined> {
    if (request.headers.authorization !== undefined) return undefined;
    const session = await this.sessions.resolve(request.headers.cookie);
    if (session === undefined) return undefined;
    if (session === null) throw new UnauthorizedError('The session has ended or is not valid; sign in again');
    const actor = await this.teams.resolveMemberActor(session.userId, session.teamId);
    if (!actor) throw new UnauthorizedError('You are no longer a member of this team; sign in again');
    if (isUnsafeMethod(request.method) && !isSameOrigin(request.headers.origin, this.config.BASE_URL)) {
      throw new ForbiddenError('Cross-origin request refused: the Origin header must be this service');
    }
    return actor;
  }
}
