import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TeamsModule } from '../teams/teams.module.js';
import { AccessTokenVerifier } from './access-token.verifier.js';
import { AUTH_STRATEGIES } from './auth-strategy.js';
import { AuthGuard } from './auth.guard.js';
import { AuthorizationServer } from './authorization-server.js';
import { BearerTokenStrategy } from './bearer-token.strategy.js';
import { OidcPayloadEntity } from './oidc-payload.entity.js';
import { OidcPayloadsRepository } from './oidc-payloads.repository.js';
import { ProtectedResourceController } from './protected-resource.controller.js';
import { SigningKeyEntity } from './signing-key.entity.js';
import { SigningKeysRepository } from './signing-keys.repository.js';
import { SIGNING_KEYS, SigningKeysService } from './signing-keys.service.js';

/**
 * Authentication and authorization (spec "Authentication"): the OAuth 2.0 authorization server,
 * the API's protected-resource metadata, and the global deny-by-default guard.
 * The signing keys load (or are created) while the application is built, before anything
 * signs or verifies.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SigningKeyEntity, OidcPayloadEntity]), TeamsModule],
  controllers: [ProtectedResourceController],
  providers: [
    SigningKeysRepository,
    SigningKeysService,
    {
      provide: SIGNING_KEYS,
      useFactory: (keys: SigningKeysService) => keys.loadOrCreate(),
      inject: [SigningKeysService],
    },
    OidcPayloadsRepository,
    AuthorizationServer,
    AccessTokenVerifier,
    BearerTokenStrategy,
    // Order matters: the first strategy whose credentials are present decides.
    {
      provide: AUTH_STRATEGIES,
      useFactory: (bearer: BearerTokenStrategy) => [bearer],
      inject: [BearerTokenStrategy],
    },
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
})
export class AuthModule {}
