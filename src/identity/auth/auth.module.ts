import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitModule } from '@app/common/rate-limit/rate-limit.module.js';
import { SignInModule } from '@app/identity/sign-in/sign-in.module.js';
import { TeamsModule } from '@app/identity/teams/teams.module.js';
import { AUTH_STRATEGY_NAMES, newAuthStrategyNames } from './auth-strategy.js';
import { AuthStatePurger } from './auth-state.purger.js';
import { AuthGuard } from './auth.guard.js';
import { AuthorizationServer } from './authorization-server.js';
import { BearerTokenStrategy } from './bearer-token.strategy.js';
import { InteractionController } from './interaction/interaction.controller.js';
import { InteractionService } from './interaction/interaction.service.js';
import { McpTokenStrategy } from './mcp-token.strategy.js';
import { OAuthClientRateLimit } from './oauth-client-rate-limit.js';
import { OidcPayloadEntity } from './oidc-payload.entity.js';
import { OidcPayloadsRepository } from './oidc-payloads.repository.js';
import { ProtectedResourceController } from './protected-resource.controller.js';
import { SessionCookieStrategy } from './session-cookie.strategy.js';
import { SigningKeyEntity } from './signing-key.entity.js';
import { SigningKeysRepository } from './signing-keys.repository.js';
import { SIGNING_KEYS, SigningKeysService } from './signing-keys.service.js';

/**
 * Authentication and authorization (spec "Authentication"): the OAuth 2.0 authorization server
 * and its interaction pages, the API's protected-resource metadata, and the global
 * deny-by-default guard with its two ways in (bearer token, session cookie).
 * The signing keys load (or are created) while the application is built, before anything
 * signs or verifies.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([SigningKeyEntity, OidcPayloadEntity]),
    TeamsModule,
    SignInModule,
    RateLimitModule,
  ],
  controllers: [ProtectedResourceController, InteractionController],
  exports: [AUTH_STRATEGY_NAMES],
  providers: [
    SigningKeysRepository,
    SigningKeysService,
    {
      provide: SIGNING_KEYS,
      useFactory: (keys: SigningKeysService) => keys.loadOrCreate(),
      inject: [SigningKeysService],
    },
    OidcPayloadsRepository,
    OAuthClientRateLimit,
    AuthorizationServer,
    InteractionService,
    AuthStatePurger,
    { provide: AUTH_STRATEGY_NAMES, useFactory: newAuthStrategyNames },
    BearerTokenStrategy,
    SessionCookieStrategy,
    McpTokenStrategy,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
})
export class AuthModule {}
