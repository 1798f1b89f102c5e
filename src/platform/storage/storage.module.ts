import { Global, Logger, Module } from '@nestjs/common';
import { join, resolve } from 'node:path';
import { createObjectStore } from '@libs/object-store/create-object-store.js';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { AppConfig } from '@app/platform/config/app-config.js';

/** Injection token of the ObjectStore that holds snapshots. */
export const OBJECT_STORE = Symbol('OBJECT_STORE');

/** S3 (or S3-compatible) when S3_BUCKET is set, else the filesystem under DATA_DIR/objects (DESIGN section 2). */
export function objectStoreFor(config: AppConfig): Promise<ObjectStore> {
  if (config.S3_BUCKET) {
    return createObjectStore({
      driver: 's3',
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      prefix: config.S3_PREFIX,
    });
  }
  const rootDir = join(resolve(config.DATA_DIR), 'objects');
  new Logger('Storage').log(
    `Snapshots stored on the filesystem under ${rootDir} (set S3_BUCKET in production)`,
  );
  return createObjectStore({ driver: 'fs', rootDir });
}

@Global()
@Module({
  providers: [{ provide: OBJECT_STORE, inject: [APP_CONFIG], useFactory: objectStoreFor }],
  exports: [OBJECT_STORE],
})
export class StorageModule {}
