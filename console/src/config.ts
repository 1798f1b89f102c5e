import { consoleConfig, type ConsoleConfig } from './logic/console-config';

export type { ConsoleConfig } from './logic/console-config';

/** The config loadConfig read; the defaults until it has run. */
let loaded: ConsoleConfig = consoleConfig(null);

/**
 * Reads /config.json (console/server/console-server.js) once at start-up; in `vite dev` without it,
 * the defaults (logic/console-config.ts).
 */
export async function loadConfig(): Promise<ConsoleConfig> {
  try {
    const response = await fetch('/config.json', { cache: 'no-store' });
    if (response.ok) loaded = consoleConfig(await response.json());
  } catch {
    // no server config: the defaults
  }
  return loaded;
}

/** The config loaded at start-up (loadConfig), for components that read a setting of it. */
export function currentConfig(): ConsoleConfig {
  return loaded;
}
