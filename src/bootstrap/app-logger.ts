import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import type { AppConfig } from '@app/config/app-config.js';

/**
 * Keys whose values never reach a log line, at any depth of a logged object (Nest's `redact`;
 * the audit trail refuses the same names, src/audit/audit-entry.ts SECRET_KEY).
 */
const REDACTED_KEYS = [
  'password',
  'secret',
  'client_secret',
  'clientSecret',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'authorization',
  'cookie',
  'private_key',
  'privateKey',
  'client_certificate',
  'clientCertificate',
  'credentials',
  'master_key',
];

/**
 * The process's logger (issue 34): Nest's console logger at LOG_LEVEL and below, one JSON object a
 * line when LOG_FORMAT is `json` (the default when NODE_ENV is production), with a record's
 * structured fields at the root of its object; coloured text otherwise.
 */
export function createAppLogger(config: AppConfig): ConsoleLogger {
  const json = (config.LOG_FORMAT ?? (config.NODE_ENV === 'production' ? 'json' : 'pretty')) === 'json';
  const order: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
  return new ConsoleLogger({
    logLevels: order.slice(0, order.indexOf(config.LOG_LEVEL) + 1),
    json,
    flattenParams: json,
    redact: REDACTED_KEYS,
  });
}
