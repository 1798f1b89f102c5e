import { Logger, type Provider } from '@nestjs/common';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KeyRing } from '@libs/crypto/key-ring.js';
import { generateMasterKey } from '@libs/crypto/master-key-spec.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { AppConfig } from '@app/platform/config/app-config.js';

/** Injection token of the master KeyRing. */
export const KEY_RING = Symbol('KEY_RING');

/**
 * The master key ring: MASTER_KEY when set; otherwise a key generated once into
 * `<DATA_DIR>/master.key` (0600) with a warning, so an evaluation install works with no setup
 * while production is told to set MASTER_KEY (a key beside the data it protects protects little).
 */
export function loadKeyRing(config: AppConfig): KeyRing {
  if (config.MASTER_KEY) return KeyRing.parse(config.MASTER_KEY);
  const file = join(resolve(config.DATA_DIR), 'master.key');
  if (!existsSync(file)) {
    mkdirSync(resolve(config.DATA_DIR), { recursive: true, mode: 0o711 });
    writeFileSync(file, generateMasterKey(), { mode: 0o600, flag: 'wx' });
  }
  new Logger('Security').warn(
    `MASTER_KEY is not set: using the key generated in ${file}. Production must set MASTER_KEY.`,
  );
  return KeyRing.parse(readFileSync(file, 'utf8').trim());
}

export const keyRingProvider: Provider = {
  provide: KEY_RING,
  inject: [APP_CONFIG],
  useFactory: loadKeyRing,
};
