import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { AccountExportRepository, type ExportSnapshot } from './account-export.repository.js';
import { EXPORT_SECTIONS } from './export-sections.js';
import { ExportRateLimitedError } from './export-rate-limited.error.js';

/** Spec "Limits": one successful export per 7 days per team. */
export const EXPORT_INTERVAL_MS = 7 * 24 * 3600 * 1000;
/** Retry-After while another export of the team is being read (it takes seconds). */
const EXPORT_BUSY_RETRY_SECONDS = 60;
export const EXPORT_FORMAT_VERSION = 1;

/**
 * The account data export (docs/account.md, spec "Account data rights"): every team-scoped row as one
 * JSON document `{ format_version, generated_at, team_id, counts, team, <section>: [...] }`, read
 * from one consistent snapshot, each section streamed as bytes by COPY, so memory stays flat whatever the team holds.
 * The successful export is recorded (account_exports + audit event `account.exported`) in that
 * same transaction after the last row was read; an export that fails or is abandoned rolls back
 * and does not count against the 7-day limit.
 */
@Injectable()
export class AccountExportService {
  constructor(
    private readonly exports: AccountExportRepository,
    private readonly audit: AuditService,
    private readonly plans: PlanLimitsService,
  ) {}

  /**
   * Opens the export of the caller's team: takes the team's export lock, checks the limit and
   * counts each section.
   * @returns the bundle's JSON text in chunks; iterating it to the end commits the export, and
   *   stopping early (`return()`, a thrown error) rolls it back
   * @throws PlanLimitExceededError `exports_per_month` or `trial_ended` (402), checked first
   * @throws ExportRateLimitedError when the team exported in the last 7 days or is exporting now
   */
  async open(actor: Actor): Promise<AsyncGenerator<string | Buffer>> {
    await this.plans.assertCanExport(actor);
    const snapshot = await this.exports.snapshot();
    try {
      if (!(await snapshot.tryLock(actor.teamId)))
        throw new ExportRateLimitedError(EXPORT_BUSY_RETRY_SECONDS);
      const last = await snapshot.lastCompletedAt(actor.teamId);
      const waitMs = last ? last.getTime() + EXPORT_INTERVAL_MS - Date.now() : 0;
      if (waitMs > 0) throw new ExportRateLimitedError(Math.ceil(waitMs / 1000));
      const counts: Record<string, number> = {};
      for (const section of EXPORT_SECTIONS)
        counts[section.name] = await snapshot.count(section, actor.teamId);
      return this.bundle(snapshot, actor, counts);
    } catch (error) {
      await snapshot.release();
      throw error;
    }
  }

  private async *bundle(
    snapshot: ExportSnapshot,
    actor: Actor,
    counts: Record<string, number>,
  ): AsyncGenerator<string | Buffer> {
    try {
      const head = {
        format_version: EXPORT_FORMAT_VERSION,
        generated_at: new Date().toISOString(),
        team_id: actor.teamId,
        counts,
        team: await snapshot.team(actor.teamId),
      };
      yield JSON.stringify(head).slice(0, -1);
      for (const section of EXPORT_SECTIONS) {
        yield `,${JSON.stringify(section.name)}:[`;
        yield* snapshot.rows(section, actor.teamId);
        yield ']';
      }
      await snapshot.recordCompleted(actor.teamId, actor.userId, counts);
      await this.audit.record(snapshot.tx, {
        ...byCaller(actor),
        action: 'account.exported',
        target: { type: 'team', id: actor.teamId },
        outcome: 'success',
        details: { counts },
      });
      await snapshot.commit();
      yield '}\n';
    } finally {
      await snapshot.release();
    }
  }
}
