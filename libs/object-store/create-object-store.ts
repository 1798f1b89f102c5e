import { FsObjectStore } from './fs-object-store.js';
import { ObjectStore } from './object-store.js';
import { S3ObjectStore, S3ObjectStoreOptions } from './s3-object-store.js';

/** Which driver, with its settings (validated by the caller's configuration, `src/config`). */
export type ObjectStoreConfig = { driver: 'fs'; rootDir: string } | ({ driver: 's3' } & S3ObjectStoreOptions);

/** The object store `config` describes: files under `rootDir`, or an S3 bucket. */
export function createObjectStore(config: ObjectStoreConfig): ObjectStore {
  switch (config.driver) {
    case 'fs':
      return new FsObjectStore(config.rootDir);
    case 's3': {
      const { driver: _driver, ...options } = config;
      return new S3ObjectStore(options);
    }
  }
}
