import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import { migrations } from '@migrations/index.js';
import { KEY_RING } from '@app/platform/security/key-ring.provider.js';
import { SecurityModule } from '@app/platform/security/security.module.js';
import { TransactionRunner } from './transaction.js';

/** Injection token of the resolved PostgreSQL URL (configured, or the embedded cluster's). */
export const DATABASE_URL = Symbol('DATABASE_URL');

/**
 * TypeORM on PostgreSQL: entities come from each feature's `TypeOrmModule.forFeature`,
 * migrations run at boot, `synchronize` is never on (STYLE "Config, data, jobs").
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(databaseUrl: string): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          imports: [SecurityModule],
          inject: [KEY_RING],
          useFactory: (keyRing: KeyRing) => ({
            type: 'postgres',
            url: databaseUrl,
            autoLoadEntities: true,
            synchronize: false,
            migrations: migrations(keyRing),
            migrationsRun: true,
            migrationsTransactionMode: 'each',
            extra: { max: 10 },
          }),
        }),
      ],
      providers: [{ provide: DATABASE_URL, useValue: databaseUrl }, TransactionRunner],
      exports: [DATABASE_URL, TransactionRunner],
    };
  }
}
