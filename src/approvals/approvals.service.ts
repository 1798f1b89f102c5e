import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { BY_SYSTEM, byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@app/common/errors.js';
import { Permission, roleHasPermission } from '@app/common/permission.js';
import { createValidationPipe } from '@app/common/validation.pipe.js';
import { RunRestoreDto } from '@app/restore/dto/run-restore.dto.js';
import { RestoreService } from '@app/restore/restore.service.js';
import { approvalEntry } from './approval-audit.js';
import { ApprovalExecutor } from './approval-executor.js';
import type { HeldForApproval } from './approval-gate.js';
import type { ApprovalEntity } from './approval.entity.js';
import { toApprovalDto } from './approval.mapper.js';
import { ApprovalsRepository } from './approvals.repository.js';
import type { ApprovalDetailDto, ApprovalDto, ApprovalLivePreviewDto } from './dto/approval.dto.js';
import type { ListApprovalsQuery } from './dto/approval-queries.js';
import { previewChanges } from './preview-changes.js';

/** Options of `ApprovalsService.requestRestore`. */
export interface RequestRestoreOptions {
  /** true: held whatever the team's setting says (an agent's restore always waits for a person) */
  requireApproval: boolean;
  /** the agent or tool asking, shown to approvers beside the requester */
  clientName?: string;
}

/**
 * Requests held for a second member's approval (docs/approvals.md): listing them, the detail
 * with the requester's dry run re-read now, approving (which runs the request once) and
 * rejecting. A pending request whose time ran out becomes `expired` as soon as anyone reads or
 * decides on the team's requests (every read path expires first, so an expired request is never
 * shown pending nor run), or at the latest at the next `approval-expiry` sweep.
 */
@Injectable()
export class ApprovalsService {
  constructor(
    private readonly approvals: ApprovalsRepository,
    private readonly executor: ApprovalExecutor,
    private readonly restores: RestoreService,
    private readonly audit: AuditService,
  ) {}

  /**
   * For other modules (the MCP server's restore tool): requests a restore of `body` (POST
   * /api/restore's body, `mode` required) in `teamId` on behalf of `actor`, held for a person's
   * approval. With `requireApproval: true` it is always held, whatever the team's setting; with
   * false it is held only when the setting asks, else started.
   * @param actor who asks (for an agent: its integration client's actor; it can never approve)
   * @param teamId the team to restore in; must be the actor's own
   * @returns `{ status: 'pending_approval', approval }` (with `requireApproval: true`, always), or
   *   `{ restoreId, status: 'started' }` when not held
   * @throws ValidationError (400) for a body POST /api/restore would refuse, or without `mode`;
   *   NotFoundError for a backup the team cannot see or another team; ConflictError
   *   `backup_not_completed`; ApiError 502 `provider_error` when the dry run cannot read the org
   */
  async requestRestore(
    actor: Actor,
    teamId: string,
    body: unknown,
    options: RequestRestoreOptions,
  ): Promise<HeldForApproval | { restoreId: string; status: 'started' }> {
    if (teamId !== actor.teamId) throw new NotFoundError('Team');
    const valid = (await createValidationPipe().transform(body, {
      type: 'body',
      metatype: RunRestoreDto,
    })) as RunRestoreDto;
    if (valid.mode === undefined)
      throw new ValidationError('A restore request needs mode', [
        { field: 'mode', message: 'mode is required: full or selective' },
      ]);
    const result = await this.restores.run({ ...actor, approvalId: undefined }, valid, undefined, {
      force: options.requireApproval,
      clientName: options.clientName,
    });
    return result as HeldForApproval | { restoreId: string; status: 'started' };
  }

  /** The team's requests, newest first, of one status when asked. */
  async list(actor: Actor, query: ListApprovalsQuery): Promise<{ approvals: ApprovalDto[]; total: number }> {
    await this.expireDue(actor.teamId);
    const { rows, total } = await this.approvals.listPage(actor.teamId, query);
    return { approvals: rows.map(toApprovalDto), total };
  }

  /**
   * One request; for a pending restore and a caller with `restore`, its dry run re-read against
   * the live org now and what changed since the requester's (`live`).
   * @throws NotFoundError for another team's or a missing one
   */
  async get(actor: Actor, id: string): Promise<ApprovalDetailDto> {
    const row = await this.visible(actor, id);
    const approval = toApprovalDto(row);
    if (
      row.action !== 'restore' ||
      row.status !== 'pending' ||
      !roleHasPermission(actor.role, Permission.Restore)
    )
      return { approval };
    return { approval, live: await this.livePreview(actor, row) };
  }

  /**
   * Approves a pending request and runs it, once: of concurrent approvals one wins (a conditional
   * UPDATE), the others answer 409. Audited `approval.approved`, then `approval.executed` (or
   * `approval.execution_failed`, the request staying `approved` with its `error`).
   * @throws ForbiddenError (403) for an integration client or the requester themselves
   * @throws NotFoundError (404) for another team's or a missing one
   * @throws ConflictError (409) `approval_not_pending` when already decided, `approval_expired`
   *   when its time ran out
   */
  async approve(actor: Actor, id: string, note?: string): Promise<ApprovalDto> {
    const row = await this.decidable(actor, id);
    const decided = await this.audit.audited(
      (tx) =>
        this.approvals.decide(
          row.teamId,
          id,
          'approved',
          { by: actor.userId, at: new Date(), reason: note ?? null },
          tx,
        ),
      (updated) => (updated ? approvalEntry('approval.approved', updated, byCaller(actor)) : null),
    );
    if (!decided) throw await this.notPending(actor, id);
    await this.execute(decided, actor);
    return toApprovalDto((await this.approvals.findVisible(actor.teamId, id))!);
  }

  /**
   * Rejects a pending request: it never runs. Audited `approval.rejected` with the reason.
   * @throws as `approve`
   */
  async reject(actor: Actor, id: string, reason: string): Promise<ApprovalDto> {
    const row = await this.decidable(actor, id);
    const decided = await this.audit.audited(
      (tx) =>
        this.approvals.decide(row.teamId, id, 'rejected', { by: actor.userId, at: new Date(), reason }, tx),
      (updated) =>
        updated ? approvalEntry('approval.rejected', updated, byCaller(actor), { reason }) : null,
    );
    if (!decided) throw await this.notPending(actor, id);
    return toApprovalDto(decided);
  }

  /**
   * Expires the requests whose time ran out, the team's or (null) every team's, each audited
   * `approval.expired` once. @returns how many
   */
  async expireDue(teamId: string | null, now = new Date()): Promise<number> {
    const expired = await this.audit.audited(
      (tx) => this.approvals.expireDue(teamId, now, tx),
      (rows) => rows.map((row) => approvalEntry('approval.expired', row, BY_SYSTEM)),
    );
    return expired.length;
  }

  /** The request, after expiring the team's overdue ones. @throws NotFoundError */
  private async visible(actor: Actor, id: string): Promise<ApprovalEntity> {
    await this.expireDue(actor.teamId);
    const row = await this.approvals.findVisible(actor.teamId, id);
    if (!row) throw new NotFoundError('Approval');
    return row;
  }

  /** The request, if the caller may decide on it. @throws ForbiddenError, NotFoundError */
  private async decidable(actor: Actor, id: string): Promise<ApprovalEntity> {
    const row = await this.visible(actor, id);
    if (actor.clientId)
      throw new ForbiddenError('Integration clients can request approval but never approve or reject');
    if (row.requestedBy === actor.userId)
      throw new ForbiddenError('A second member must decide: you cannot approve or reject your own request');
    return row;
  }

  /** The 409 of a decision that changed nothing: expired, or already decided. */
  private async notPending(actor: Actor, id: string): Promise<ConflictError> {
    await this.expireDue(actor.teamId);
    const row = await this.approvals.findVisible(actor.teamId, id);
    return row?.status === 'expired'
      ? new ConflictError('approval_expired', 'The request expired; it can no longer run. Ask again.')
      : new ConflictError('approval_not_pending', `The request is already ${row?.status ?? 'decided'}`);
  }

  private async execute(approval: ApprovalEntity, approver: Actor): Promise<void> {
    let outcome: { result: Record<string, unknown> } | { error: string };
    try {
      outcome = { result: await this.executor.run(approval, approver) };
    } catch (error) {
      outcome = { error: (error as Error).message };
    }
    await this.audit.audited(
      (tx) => this.approvals.settle(approval.id, outcome, new Date(), tx),
      () =>
        'result' in outcome
          ? approvalEntry('approval.executed', approval, byCaller(approver), { result: outcome.result })
          : approvalEntry('approval.execution_failed', approval, byCaller(approver), {
              error: outcome.error,
            }),
    );
  }

  private async livePreview(actor: Actor, row: ApprovalEntity): Promise<ApprovalLivePreviewDto> {
    try {
      const live = await this.restores.dryRunOf(actor, row.body as unknown as RunRestoreDto);
      return { preview: { ...live }, changes: previewChanges(row.preview ?? {}, live) };
    } catch (error) {
      return { preview: {}, changes: [], error: (error as Error).message };
    }
  }
}
