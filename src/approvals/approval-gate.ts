import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import type { Actor } from '@app/common/actor.js';
import { byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { approvalEntry } from './approval-audit.js';
import type { ApprovalAction } from './approval.entity.js';
import { toApprovalDto } from './approval.mapper.js';
import { ApprovalSettingsRepository, type ApprovalSettingsValues } from './approval-settings.repository.js';
import { ApprovalsRepository } from './approvals.repository.js';
import type { ApprovalDto } from './dto/approval.dto.js';

/** The answer of a request held for approval: 202 with the pending request. */
export interface HeldForApproval {
  status: 'pending_approval';
  approval: ApprovalDto;
}

/** What a held request does, as the requester asked it. */
export interface HeldRequest {
  target: { type: string; id: string | null };
  /** one line for the list: "Delete backup … of acme.okta.com" */
  summary: string;
  /** the validated body, run as it is on approval */
  body: Record<string, unknown>;
  /** what the requester saw (a restore's dry run) */
  preview?: Record<string, unknown>;
}

/** Options of `ApprovalGate.hold`. */
export interface HoldOptions {
  /** hold even when the team's setting does not ask for it (agents' restores, docs/approvals.md) */
  force?: boolean;
  /** the agent or tool that asked, kept with the request */
  clientName?: string;
}

/** Which switch of the setting covers each action (restores: `enabled` itself). */
const COVERED_BY: Record<Exclude<ApprovalAction, 'settings'>, keyof ApprovalSettingsValues> = {
  restore: 'enabled',
  backup_delete: 'backupDelete',
  connection_delete: 'connectionDelete',
  account_delete: 'accountDelete',
};

/**
 * Sets the status of a feature's answer: 202 when it was held for approval, else as it is.
 * @returns `result` unchanged
 */
export function answerHeld<T extends object>(
  response: Response,
  result: T | HeldForApproval,
): T | HeldForApproval {
  if ('approval' in result) response.status(202);
  return result;
}

/**
 * The two-person approval gate (docs/approvals.md): the features whose actions a team may put
 * behind a second member's approval (restore, backup, connection and account deletion, and the
 * setting itself) ask it before acting; it either lets the call through (null) or records a
 * pending request (`approval.requested`, which notifies the approvers) and hands it back for a
 * 202. It knows no feature: the approvals module runs the request on approval by calling the same
 * service method with the same body, under an actor carrying `approvalId`, which the gate lets
 * through.
 */
@Injectable()
export class ApprovalGate {
  constructor(
    private readonly approvals: ApprovalsRepository,
    private readonly settings: ApprovalSettingsRepository,
    private readonly audit: AuditService,
  ) {}

  /** Whether the team's setting holds `action` now (the setting's own changes: see ApprovalSettingsService). */
  async requires(teamId: string, action: Exclude<ApprovalAction, 'settings'>): Promise<boolean> {
    const settings = await this.settings.find(teamId);
    return settings.enabled && settings[COVERED_BY[action]] === true;
  }

  /**
   * Holds the call for approval when the team's setting covers `action` (or `options.force`),
   * unless the actor runs an approved request. `describe` is called only when held (a restore's
   * dry run reads the live org).
   * @returns the pending request, or null to go ahead
   * @throws whatever `describe` throws (nothing is recorded)
   */
  async hold(
    actor: Actor,
    action: ApprovalAction,
    describe: () => Promise<HeldRequest>,
    options: HoldOptions = {},
  ): Promise<HeldForApproval | null> {
    if (actor.approvalId) return null;
    if (!options.force && action !== 'settings' && !(await this.requires(actor.teamId, action))) return null;
    return this.record(actor, action, await describe(), options.clientName);
  }

  private async record(
    actor: Actor,
    action: ApprovalAction,
    request: HeldRequest,
    clientName?: string,
  ): Promise<HeldForApproval> {
    const { expiryHours } = await this.settings.find(actor.teamId);
    const row = await this.audit.audited(
      (tx) =>
        this.approvals.insert(
          {
            id: randomUUID(),
            teamId: actor.teamId,
            action,
            targetType: request.target.type,
            targetId: request.target.id,
            summary: request.summary,
            body: request.body,
            preview: request.preview ?? null,
            requestedBy: actor.userId,
            requesterRole: actor.role,
            requesterClientId: actor.clientId ?? null,
            clientName: clientName ?? null,
            expiresAt: new Date(Date.now() + expiryHours * 3_600_000),
          },
          tx,
        ),
      (inserted) => approvalEntry('approval.requested', inserted, byCaller(actor)),
    );
    return { status: 'pending_approval', approval: toApprovalDto(row) };
  }
}
