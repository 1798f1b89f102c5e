import { FsObjectStore } from './fs-object-store.js';
import { ObjectStore } from './object-store.js';
import type { S3ObjectStoreOptions } from './s3-object-store.js';

/** Which driver, with its settings (validated by the caller's configuration, `src/platform/config`). */
export type ObjectStoreConfig = { driver: 'fs'; rootDir: string } | ({ driver: 's3' } & S3ObjectStoreOptions);

/**
 * The object store `config` describes: files under `rootDir`, or an S3 bucket. The S3 driver and
 * the AWS SDK are loaded only when asked for (about 3 MB of heap a filesystem install never uses).
 * @throws as the driver's constructor (an S3 prefix that is not a valid key prefix, one credential)
 */
export async function createObjectStore(config: ObjectStoreConfig): Promise<ObjectStore> {
  switch (config.driver) {
    case 'fs':
      return new FsObjectStore(config.rootDir);
    case 's3': {
      const { driver: _driver, ...options } = config;
      const { S3ObjectStore } = await import('./s3-object-store.js');
      return new S3ObjectStore(options);
    }
  }
}
