import { Inject, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { AuditService } from '@app/audit/audit.service.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { TrackedRunEntity } from '@app/platform/database/tracked-run/tracked-run.entity.js';
import { WorkerInterval } from '@app/platform/jobs/worker-interval.js';
import { TrackedRun, type TrackedRunKind } from './tracked-run-kind.js';

/**
 * Fails the tracked runs whose worker died, of every `@TrackedRun()` kind (DESIGN section 4:
 * never `running` forever): a running run is stale when its heartbeat is older than
 * BACKUP_STALE_AFTER_SECONDS. Runs on every worker replica each BACKUP_SWEEP_INTERVAL_SECONDS;
 * the UPDATE is conditional and idempotent, so replicas need no coordination. What happens to
 * the dead worker's pg-boss job: docs/decisions.md "Crash safety".
 */
@Injectable()
export class StaleRunSweeper extends WorkerInterval {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(config, config.BACKUP_SWEEP_INTERVAL_SECONDS * 1000);
  }

  protected tick(): Promise<string[]> {
    return this.sweep();
  }

  /**
   * Fails the runs not heard of since `now` minus the stale window, each kind's with its audit
   * entries in one transaction, then discards what they left (after the UPDATE, never before: a
   * worker that is only slow, not dead, must not lose what a run that can still complete stored).
   * @returns ids of the runs it failed
   */
  async sweep(now = new Date()): Promise<string[]> {
    const before = new Date(now.getTime() - this.config.BACKUP_STALE_AFTER_SECONDS * 1000);
    const failed: string[] = [];
    for (const wrapper of this.discovery.getProviders({ metadataKey: TrackedRun.KEY })) {
      failed.push(...(await this.sweepKind(wrapper.instance as TrackedRunKind<TrackedRunEntity>, before)));
    }
    return failed;
  }

  private async sweepKind(kind: TrackedRunKind<TrackedRunEntity>, before: Date): Promise<string[]> {
    const message = kind.staleMessage;
    const stale = await this.audit.audited(
      (tx) => kind.runs.failStale(before, message, tx),
      (runs) => runs.map((run) => kind.staleEntry(run, message)),
    );
    const ids = stale.map((run) => run.id);
    if (ids.length === 0) return ids;
    this.logger.warn(`Marked ${ids.length} stale ${kind.noun}(s) failed: ${ids.join(', ')}`);
    for (const run of stale)
      await kind
        .discard?.(run)
        .catch((error) => this.logger.error(`${kind.noun} ${run.id} not discarded: ${String(error)}`));
    return ids;
  }
}
