import { appendFileSync, createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { LogLevel } from '@nestjs/common';
import { AppLogger, REDACTED_KEYS } from '@app/platform/bootstrap/app-logger.js';
import type { AppConfig } from '@app/platform/config/app-config.js';

/**
 * The whole run's service log (docs/operations.md: "a test scans the log of a full e2e run"). Every test
 * app logs JSON lines at level `log` into TEST_LOG_DIR (made by test/global-setup.ts), and every
 * secret the test support hands out is remembered there; test/global-teardown.ts scans the log
 * for them, and for any JWT or private key, once the last file has run.
 */
const directory = process.env.TEST_LOG_DIR;

/** Remembers values that must never appear in the service's log (client secrets, tokens, keys). */
export function rememberSecrets(...values: Array<string | undefined>): void {
  const secrets = values.filter((value): value is string => !!value && value.length >= 8);
  if (directory && secrets.length) appendFileSync(join(directory, 'secrets'), `${secrets.join('\n')}\n`);
}

/** The app logger writing into the run's log file; errors are still printed for the reader. */
class CapturingLogger extends AppLogger {
  constructor(
    private readonly file: WriteStream,
    levels: LogLevel[],
  ) {
    super({ logLevels: levels, json: true, flattenParams: true, redact: REDACTED_KEYS });
  }

  protected override printAsJson(message: unknown, options: Parameters<AppLogger['printAsJson']>[1]): void {
    this.file.write(`${this.stringifyJsonLogObject(this.getJsonLogObject(message, options))}\n`);
    if (options.logLevel === 'error' || options.logLevel === 'fatal') super.printAsJson(message, options);
  }
}

/**
 * A logger for a test app that writes the run's log, or undefined (the app's own logger) when no
 * run log is kept or the spec chose its log format itself (test/logs.e2e-spec.ts reads stdout).
 * @returns the logger and a close function that flushes its file
 */
export function captureLog(
  config: AppConfig,
  env: Record<string, string>,
): { logger: AppLogger; close(): Promise<void> } | undefined {
  if (!directory || env.LOG_FORMAT || env.LOG_LEVEL) return undefined;
  const file = createWriteStream(join(directory, `service-${process.pid}.ndjson`), { flags: 'a' });
  rememberSecrets(config.MASTER_KEY);
  return {
    logger: new CapturingLogger(file, ['fatal', 'error', 'warn', 'log']),
    close: () => new Promise((resolve) => file.end(resolve)),
  };
}
