import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '@app/platform/mail/mail.module.js';
import { SecurityService } from '@app/platform/security/security.service.js';
import { SessionsModule } from '@app/identity/sessions/sessions.module.js';
import { TeamsModule } from '@app/identity/teams/teams.module.js';
import { EmailCodeEntity } from './email-code.entity.js';
import { EmailCodesRepository } from './email-codes.repository.js';
import { EmailCodesService } from './email-codes.service.js';
import { SignInOptionsController } from './sign-in-options.controller.js';
import { SignInController } from './sign-in.controller.js';
import { SignInSecretEntity } from './sign-in-secret.entity.js';
import { SignInSecretsRepository } from './sign-in-secrets.repository.js';
import { loadSignInKeys, SIGN_IN_KEYS } from './sign-in-keys.js';
import { SignInService } from './sign-in.service.js';
import { UpstreamSignInController } from './upstream-sign-in.controller.js';
import { UpstreamOidcService } from './upstream-oidc.service.js';

/**
 * Sign-in without passwords (docs/auth.md): one-time e-mail codes and the customer's OpenID Connect
 * provider, each ending in a session. The HMAC keys load (or are created) at boot.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([EmailCodeEntity, SignInSecretEntity]),
    TeamsModule,
    SessionsModule,
    MailModule,
  ],
  controllers: [SignInController, SignInOptionsController, UpstreamSignInController],
  providers: [
    SignInSecretsRepository,
    {
      provide: SIGN_IN_KEYS,
      useFactory: loadSignInKeys,
      inject: [SignInSecretsRepository, SecurityService],
    },
    EmailCodesRepository,
    EmailCodesService,
    UpstreamOidcService,
    SignInService,
  ],
  exports: [SignInService, EmailCodesService, SessionsModule, MailModule],
})
export class SignInModule {}
