import { type DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from '@app/audit/audit.module.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { ConfigModule } from '@app/platform/config/config.module.js';
import { DatabaseModule } from '@app/platform/database/database.module.js';
import { MailModule } from '@app/platform/mail/mail.module.js';
import { PlansModule } from '@app/plans/plans.module.js';
import { SecurityModule } from '@app/platform/security/security.module.js';
import { TeamsModule } from '@app/identity/teams/teams.module.js';
import { StorageModule } from '@app/platform/storage/storage.module.js';
import { KeyRotationModule } from '@app/platform/key-rotation/key-rotation.module.js';

/** Just what the CLI needs: configuration, the database (migrated at boot), TeamsService (which records to the audit trail), the outbox, and key rotation (with the object store). */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(databaseUrl),
        AuditModule,
        SecurityModule,
        TeamsModule,
        MailModule,
        PlansModule,
        StorageModule,
        KeyRotationModule,
      ],
    };
  }
}
