import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import passport from 'passport';
import type { Actor } from '@app/common/actor.js';
import { UnauthorizedError } from '@app/common/errors.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { type AccessTokenClaims, AccessTokenStrategy } from './access-token.strategy.js';
import { parseAccountSubject } from './account-subject.js';
import { AUTH_STRATEGY_NAMES, type AuthStrategyNames } from './auth-strategy.js';
import { SIGNING_KEYS, type SigningKeySet } from './signing-keys.service.js';

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
    super(names.bearerToken, config, keys);
  }

  /** @throws UnauthorizedError when the token's client or person may no longer call. */
  async validate(claims: AccessTokenClaims): Promise<Actor> {
    // A client acting for itself (client_credentials: sub = client_id) is an integration
    // client; any other token was issued to a client on behalf of a person in a team.
    if (claims.subject === claims.clientId) {
      const actor = await this.teams.resolveClientActor(claims.clientId);
      if (!actor) throw new UnauthorizedError('The client of this access token was revoked or deleted');
      return actor;
    }
    const account = parseAccountSubject(claims.subject);
    if (!account) throw new UnauthorizedError('The access token is not valid');
    const actor = await this.teams.resolveMemberActor(account.userId, account.teamId);
    if (!actor)
      throw new UnauthorizedError('The user of this access token is no longer a member of its team');
    return actor;
  }

  onModuleDestroy(): void {
    passport.unuse(this.name);
  }
}
