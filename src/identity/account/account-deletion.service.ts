import { ApprovalGate, type HeldForApproval } from '@app/approvals/approval-gate.js';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import type { Actor } from '@app/common/actor.js';
import { NotFoundError } from '@app/common/errors.js';
import { byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { OBJECT_STORE } from '@app/platform/storage/storage.module.js';
import { AccountDeletionsRepository } from './account-deletions.repository.js';
import { TeamPurgeRepository } from './team-purge.repository.js';

/** Spec "Limits": the grace period between the request and the deletion. */
export const GRACE_PERIOD_MS = 30 * 24 * 3600 * 1000;

/** The prefix of every object the team owns in the store (snapshots and reports, backups.service.ts). */
export function teamPrefix(teamId: string): string {
  return `teams/${teamId}/`;
}

/**
 * Account deletion (docs/account.md, spec "Account data rights", "Limits"): the owner's request starts a
 * 30-day grace period during which the team keeps working and may cancel; afterwards the daily
 * job erases the team's objects and rows for good, leaving only a counts row.
 */
@Injectable()
export class AccountDeletionService {
  private readonly logger = new Logger(AccountDeletionService.name);

  constructor(
    private readonly deletions: AccountDeletionsRepository,
    private readonly purge: TeamPurgeRepository,
    private readonly audit: AuditService,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    private readonly gate: ApprovalGate,
  ) {}

  /**
   * Schedules the caller's team for deletion 30 days from now, or answers the pending schedule
   * (idempotent). A new request is audited (`account.deletion_scheduled`, which notifies and
   * e-mails every member). When the team's two-person approval covers account deletion, holds it
   * instead (docs/approvals.md).
   * @returns when deletion starts, or the pending request when held
   */
  async schedule(actor: Actor, now = new Date()): Promise<{ scheduledFor: Date } | HeldForApproval> {
    const held = await this.gate.hold(actor, 'account_delete', async () => ({
      target: { type: 'team', id: actor.teamId },
      summary: 'Delete the account and all team data (30-day grace period)',
      body: { confirm: 'DELETE' },
    }));
    if (held) return held;
    const { scheduledFor } = await this.audit.audited(
      (tx) =>
        this.deletions.schedule(tx, actor.teamId, actor.userId, new Date(now.getTime() + GRACE_PERIOD_MS)),
      (result) =>
        result.created
          ? {
              ...byCaller(actor),
              action: 'account.deletion_scheduled',
              target: { type: 'team', id: actor.teamId },
              outcome: 'success',
              details: { scheduled_for: result.scheduledFor.toISOString() },
            }
          : null,
    );
    return { scheduledFor };
  }

  /**
   * Cancels the team's pending deletion (audited `account.deletion_cancelled`).
   * @throws NotFoundError when none is pending
   */
  async cancel(actor: Actor): Promise<void> {
    const cancelled = await this.audit.audited(
      (tx) => this.deletions.cancel(tx, actor.teamId),
      (scheduledFor) =>
        scheduledFor && {
          ...byCaller(actor),
          action: 'account.deletion_cancelled',
          target: { type: 'team', id: actor.teamId },
          outcome: 'success',
          details: { scheduled_for: scheduledFor.toISOString() },
        },
    );
    if (!cancelled) throw new NotFoundError('Pending account deletion');
  }

  /**
   * Erases every team whose grace period ended by `now`, and finishes any a crash interrupted:
   * objects under the team's prefix, then its rows (TeamPurgeRepository).
   * @returns the ids of the teams erased
   */
  async deleteDue(now: Date): Promise<string[]> {
    const teams = await this.deletions.due(now);
    for (const teamId of teams) {
      await this.purge.begin(teamId);
      let objects = 0;
      let bytes = 0;
      for await (const entry of this.store.list(teamPrefix(teamId))) {
        objects += 1;
        bytes += entry.size;
      }
      await this.store.deletePrefix(teamPrefix(teamId));
      await this.purge.addObjects(teamId, objects, bytes);
      await this.purge.deleteRows(teamId);
      this.logger.log(`Deleted team ${teamId}: ${objects} object(s), ${bytes} byte(s) and its rows`);
    }
    return teams;
  }
}
