import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { currentLogFields } from '@app/common/log-context/log-context.js';

/**
 * Keys whose values never reach a log line, at any depth of a logged object (Nest's `redact`;
 * the audit trail refuses the same names, src/audit/audit-entry.ts SECRET_KEY).
 */
export const REDACTED_KEYS = [
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
 * Nest's console logger with the current job's ids (log-context.ts: `job_id`, `queue`,
 * `backup_id`, `connection_id`...) on every line a job writes, beside the line's own fields
 * (which win on a clash).
 */
export class AppLogger extends ConsoleLogger {
  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, unknown>,
  ): void {
    const job = currentLogFields();
    const fields = job ? { ...job, ...params } : params;
    super.printMessages(messages, context, logLevel, writeStreamType, errorStack, fields);
  }
}

/**
 * The process's logger (docs/operations.md): Nest's console logger at LOG_LEVEL and below, one JSON object a
 * line when LOG_FORMAT is `json` (the default when NODE_ENV is production), with a record's
 * structured fields at the root of its object; coloured text otherwise.
 */
export function createAppLogger(config: AppConfig): ConsoleLogger {
  const json = (config.LOG_FORMAT ?? (config.NODE_ENV === 'production' ? 'json' : 'pretty')) === 'json';
  const order: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
  return new AppLogger({
    logLevels: order.slice(0, order.indexOf(config.LOG_LEVEL) + 1),
    json,
    flattenParams: json,
    redact: REDACTED_KEYS,
  });
}
