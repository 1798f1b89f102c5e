import type { Logger } from '@nestjs/common';

/**
 * Runs `task` every `intervalMs` on this replica, without keeping the process alive, logging
 * what it throws (a failed run waits for the next). @returns a function that stops it
 */
export function startPeriodicTask(
  intervalMs: number,
  task: () => Promise<unknown>,
  logger: Logger,
): () => void {
  const timer = setInterval(() => void task().catch((error) => logger.error(String(error))), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
