import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { ConflictError, NotFoundError } from '@app/common/errors.js';
import type { CreateInvitationDto, TeamInvitationDto } from './dto/team-invitation.dto.js';
import { normalizeEmail } from './email-address.js';
import { InvitationsRepository } from './invitations.repository.js';
import { MembersRepository } from './members.repository.js';
import { assertMayHandleRoles } from './membership-rules.js';
import { toInvitationDto } from './teams.mapper.js';
import { byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';

/** How long an invitation can be accepted, seconds (7 days). */
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Invitations to the caller's team (docs/security.md). The invited address
 * joins with the invited role at its first sign-in within INVITATION_TTL_SECONDS
 * (TeamsService.resolveSignIn). Routes need `manage team`; an invitation carrying `admin`
 * (made, replaced or revoked) needs `super_admin`.
 */
@Injectable()
export class TeamInvitationsService {
  constructor(
    private readonly invitations: InvitationsRepository,
    private readonly members: MembersRepository,
    private readonly audit: AuditService,
    private readonly plans: PlanLimitsService,
  ) {}

  /** Pending invitations, expired ones included (`status`), newest first. */
  async list(actor: Actor): Promise<TeamInvitationDto[]> {
    const now = new Date();
    return (await this.invitations.listPending(actor.teamId)).map((row) => toInvitationDto(row, now));
  }

  /**
   * Invites an address, or renews its pending invitation (new role, new expiry).
   * @throws PlanLimitExceededError (402) `members` or `trial_ended`, checked first
   * @throws ForbiddenError (403) when `admin` is involved and the caller is not `super_admin`;
   *   ConflictError (409 `already_member`) when the address already belongs to the team.
   */
  async invite(actor: Actor, input: CreateInvitationDto): Promise<TeamInvitationDto> {
    await this.plans.assertCanInvite(actor);
    const email = normalizeEmail(input.email);
    const previous = await this.invitations.findPendingByEmail(actor.teamId, email);
    assertMayHandleRoles(actor, input.role, ...(previous ? [previous.role] : []));
    if (await this.members.findRoleByEmail(actor.teamId, email)) {
      throw new ConflictError('already_member', 'This address already belongs to a member of the team');
    }
    const row = await this.audit.audited(
      (tx) =>
        this.invitations.upsertPending(
          {
            teamId: actor.teamId,
            email,
            role: input.role,
            invitedBy: actor.userId,
            expiresInSeconds: INVITATION_TTL_SECONDS,
          },
          tx,
        ),
      (invitation) => ({
        ...byCaller(actor),
        action: 'team.member_invited',
        target: { type: 'invitation', id: invitation.id },
        outcome: 'success',
        details: { email, role: input.role },
      }),
    );
    return toInvitationDto(row, new Date());
  }

  /**
   * Deletes a pending invitation.
   * @throws NotFoundError (404) when unknown, accepted or another team's; ForbiddenError (403)
   *   for an `admin` invitation unless the caller is `super_admin`.
   */
  async revoke(actor: Actor, id: string): Promise<void> {
    const invitation = await this.invitations.findPending(actor.teamId, id);
    if (!invitation) throw new NotFoundError('Invitation');
    assertMayHandleRoles(actor, invitation.role);
    const deleted = await this.audit.audited(
      (tx) => this.invitations.deletePending(actor.teamId, id, tx),
      (done) =>
        done
          ? {
              ...byCaller(actor),
              action: 'team.invitation_revoked',
              target: { type: 'invitation', id },
              outcome: 'success',
              details: { email: invitation.email, role: invitation.role },
            }
          : null,
    );
    if (!deleted) throw new NotFoundError('Invitation');
  }
}
