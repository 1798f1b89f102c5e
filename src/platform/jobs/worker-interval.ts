import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '@app/platform/config/app-config.js';

/**
 * A task every worker replica runs on its own timer (the stale sweeps): started at boot in the
 * `worker` and `all` roles, never in `api`, stopped at shutdown. The timer does not keep the
 * process alive; a run that throws is logged and the next one runs on time.
 */
export abstract class WorkerInterval implements OnModuleInit, OnApplicationShutdown {
  protected readonly logger = new Logger(this.constructor.name);
  private timer?: NodeJS.Timeout;

  /** @param intervalMs time between runs, milliseconds */
  constructor(
    protected readonly config: AppConfig,
    private readonly intervalMs: number,
  ) {}

  /** One run of the task. */
  protected abstract tick(): Promise<unknown>;

  onModuleInit(): void {
    if (this.config.ROLE === 'api') return;
    this.timer = setInterval(
      () => void this.tick().catch((error) => this.logger.error(String(error))),
      this.intervalMs,
    );
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
