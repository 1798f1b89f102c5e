import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import passport from 'passport';
import CustomStrategy from 'passport-custom';
import type { Actor } from '@app/common/actor.js';
import { ForbiddenError, UnauthorizedError } from '@app/common/errors.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import {
  isTrustedOrigin,
  isUnsafeMethod,
  UNTRUSTED_ORIGIN_MESSAGE,
} from '@app/identity/sessions/same-origin.js';
import { SessionsService } from '@app/identity/sessions/sessions.service.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { AUTH_STRATEGY_NAMES, type AuthRequest, type AuthStrategyNames } from './auth-strategy.js';

/**
 * passport-custom's strategy (the whole request to one callback) under a name of ours: it calls
 * every instance "custom", and passport registers strategies by name.
 */
class NamedCustomStrategy extends CustomStrategy {
  constructor(name: string, verify: CustomStrategy.VerifyCallback) {
    super(verify);
    (this as { name: string }).name = name;
  }
}

/**
 * The web application's session cookie (spec "Authentication" item 1, second way). Asked only
 * when the request has no `Authorization` header: a request that has one is judged by it alone.
 * The person acts with their current role in the session's team. A cookie-authenticated
 * POST/PUT/PATCH/DELETE must also carry `Origin` equal to BASE_URL's origin or one of
 * CONSOLE_ORIGINS (CSRF), else 403.
 */
@Injectable()
export class SessionCookieStrategy extends PassportStrategy(NamedCustomStrategy) implements OnModuleDestroy {
  constructor(
    @Inject(AUTH_STRATEGY_NAMES) names: AuthStrategyNames,
    private readonly sessions: SessionsService,
    private readonly teams: TeamsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super(names.sessionCookie);
  }

  /**
   * @returns the actor; null when the request carries no session cookie, or an Authorization
   *   header (passport then asks the next strategy, if any).
   * @throws UnauthorizedError for a session that ended or a person no longer in the team;
   *   ForbiddenError for a cross-origin unsafe request.
   */
  async validate(request: AuthRequest): Promise<Actor | null> {
    if (request.headers.authorization !== undefined) return null;
    const session = await this.sessions.resolve(request.headers.cookie);
    if (session === undefined) return null;
    if (session === null) throw new UnauthorizedError('The session has ended or is not valid; sign in again');
    const actor = await this.teams.resolveMemberActor(session.userId, session.teamId);
    if (!actor) throw new UnauthorizedError('You are no longer a member of this team; sign in again');
    if (isUnsafeMethod(request.method) && !isTrustedOrigin(request.headers.origin, this.config)) {
      throw new ForbiddenError(UNTRUSTED_ORIGIN_MESSAGE);
    }
    return actor;
  }

  onModuleDestroy(): void {
    passport.unuse(this.name);
  }
}
