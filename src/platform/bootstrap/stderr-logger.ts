import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/** Nest's console logger on stderr, so that a command's stdout carries only its report (`npm run -s cli -- ... | jq`). */
export class StderrLogger extends ConsoleLogger {
  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, unknown>,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack, params);
  }
}
