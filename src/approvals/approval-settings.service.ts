import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { byCaller, entryAbout } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { ApprovalGate, type HeldForApproval } from './approval-gate.js';
import { toApprovalSettingsDto } from './approval.mapper.js';
import { ApprovalSettingsRepository, type ApprovalSettingsValues } from './approval-settings.repository.js';
import type { ApprovalSettingsDto, UpdateApprovalSettingsDto } from './dto/approval-settings.dto.js';

/** The optional switches, by their API name. */
const SWITCHES = [
  ['backup_delete', 'backupDelete'],
  ['connection_delete', 'connectionDelete'],
  ['account_delete', 'accountDelete'],
] as const;

/**
 * A team's two-person approval setting (docs/approvals.md). Turning it on, or a switch on, applies
 * at once; while it is on, turning it or a switch off is itself held for a second member's
 * approval (a request of kind `settings`), since one person could otherwise switch the control
 * off and act alone.
 */
@Injectable()
export class ApprovalSettingsService {
  constructor(
    private readonly settings: ApprovalSettingsRepository,
    private readonly gate: ApprovalGate,
    private readonly audit: AuditService,
  ) {}

  async get(actor: Actor): Promise<ApprovalSettingsDto> {
    return toApprovalSettingsDto(await this.settings.find(actor.teamId));
  }

  /**
   * Applies the changes (what the body leaves out keeps its value), audited
   * `approval.settings_changed`; or, when they loosen a setting that is on, holds them.
   * @returns the settings now, or the pending request of kind `settings`
   */
  async update(
    actor: Actor,
    body: UpdateApprovalSettingsDto,
  ): Promise<{ settings: ApprovalSettingsDto } | HeldForApproval> {
    const current = await this.settings.find(actor.teamId);
    const next: ApprovalSettingsValues = {
      enabled: body.enabled ?? current.enabled,
      backupDelete: body.backup_delete ?? current.backupDelete,
      connectionDelete: body.connection_delete ?? current.connectionDelete,
      accountDelete: body.account_delete ?? current.accountDelete,
      expiryHours: body.expiry_hours ?? current.expiryHours,
    };
    const loosened = [
      ...(current.enabled && !next.enabled ? ['enabled'] : []),
      ...SWITCHES.filter(([, key]) => current.enabled && current[key] && !next[key]).map(([name]) => name),
    ];
    if (loosened.length) {
      const held = await this.gate.hold(actor, 'settings', async () => ({
        target: { type: 'team', id: actor.teamId },
        summary: `Turn off two-person approval: ${loosened.join(', ')}`,
        body: { ...body },
      }));
      if (held) return held;
    }
    await this.audit.audited(
      (tx) => this.settings.save(actor.teamId, next, actor.userId, tx),
      () =>
        entryAbout(
          actor.teamId,
          { type: 'team', id: actor.teamId },
          'approval.settings_changed',
          'success',
          {
            ...toApprovalSettingsDto({ ...next, updatedAt: null }),
            updated_at: undefined,
            approval_id: actor.approvalId,
          },
          byCaller(actor),
        ),
    );
    return { settings: await this.get(actor) };
  }
}
