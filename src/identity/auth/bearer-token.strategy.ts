import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import passport from 'passport';
import type { Actor } from '@app/common/actor.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { type AccessTokenClaims, AccessTokenStrategy } from './access-token.strategy.js';
import { AUTH_STRATEGY_NAMES, type AuthStrategyNames } from './auth-strategy.js';
import { SIGNING_KEYS, type SigningKeySet } from './signing-keys.service.js';
import { tokenActor } from './token-actor.js';

/**
 * The first way in (spec "Authentication"): an OAuth 2.0 bearer token of this service's
 * authorization server (checked by {@link AccessTokenStrategy}), held by an integration client
 * for itself, or by a client for a person (authorization code grant), who acts with their
 * current role in the token's team.
 */
@Injectable()
export class BearerTokenStrategy extends PassportStrategy(AccessTokenStrategy) implements OnModuleDestroy {
  constructor(
    @Inject(AUTH_STRATEGY_NAMES) names: AuthStrategyNames,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(SIGNING_KEYS) keys: SigningKeySet,
    private readonly teams: TeamsService,
  ) {
    super(names.bearerToken, { issuer: config.BASE_URL, audience: config.API_RESOURCE }, keys);
  }

  /** @throws UnauthorizedError when the token's client or person may no longer call (tokenActor). */
  validate(claims: AccessTokenClaims): Promise<Actor> {
    return tokenActor(this.teams, claims);
  }

  onModuleDestroy(): void {
    passport.unuse(this.name);
  }
}
