import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { ConflictError, ForbiddenError, NotFoundError } from '@app/common/errors.js';
import type { TeamMemberDto } from './dto/team-member.dto.js';
import { type MemberRow, MembersRepository } from './members.repository.js';
import {
  assertMayHandleRoles,
  assertNotOwner,
  assertNotSelf,
  type AssignableRole,
} from './membership-rules.js';
import { toMemberDto } from './teams.mapper.js';
import { type AuditEntry, byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';

/**
 * Members of the caller's team and its ownership (docs/security.md). Routes
 * need `manage team`; the finer rules are in membership-rules.ts. A user of another team is a
 * 404, like any resource of another team (DESIGN section 3).
 */
@Injectable()
export class TeamMembersService {
  constructor(
    private readonly members: MembersRepository,
    private readonly audit: AuditService,
  ) {}

  async list(actor: Actor): Promise<TeamMemberDto[]> {
    return (await this.members.listMembers(actor.teamId)).map(toMemberDto);
  }

  /**
   * Gives another member a role other than `super_admin`.
   * @throws NotFoundError (404) when not a member; ForbiddenError (403) for one's own role, or
   *   for granting or taking away `admin` without being `super_admin`; ConflictError (409
   *   `owner_protected`) for the owner, `member_changed` when their role changed meanwhile.
   */
  async changeRole(actor: Actor, userId: string, role: AssignableRole): Promise<TeamMemberDto> {
    const member = await this.findOrThrow(actor.teamId, userId);
    assertNotSelf(actor, userId);
    assertNotOwner(member.role);
    assertMayHandleRoles(actor, member.role, role);
    if (member.role !== role) {
      const changed = await this.audit.audited(
        (tx) => this.members.changeRole(actor.teamId, userId, member.role, role, tx),
        (done) =>
          done
            ? memberEntry(actor, 'team.member_role_changed', userId, {
                email: member.email,
                from: member.role,
                to: role,
              })
            : null,
      );
      if (!changed) throw memberChanged();
    }
    return toMemberDto({ ...member, role });
  }

  /**
   * Removes another member; the integration clients they created in this team are revoked with them.
   * @throws as `changeRole` (removing an admin needs `super_admin`).
   */
  async remove(actor: Actor, userId: string): Promise<void> {
    const member = await this.findOrThrow(actor.teamId, userId);
    assertNotSelf(actor, userId);
    assertNotOwner(member.role);
    assertMayHandleRoles(actor, member.role);
    const removed = await this.audit.audited(
      (tx) => this.members.remove(actor.teamId, userId, member.role, tx),
      (done) =>
        done
          ? memberEntry(actor, 'team.member_removed', userId, { email: member.email, role: member.role })
          : null,
    );
    if (!removed) throw memberChanged();
  }

  /**
   * Makes another member the owner (`super_admin`); the previous owner becomes `admin` in the
   * same transaction, so the team always has exactly one owner.
   * @throws ForbiddenError (403) unless the caller is `super_admin`; NotFoundError (404) when
   *   not a member; ConflictError (409 `already_owner`).
   */
  async transferOwnership(
    actor: Actor,
    userId: string,
  ): Promise<{ owner: TeamMemberDto; previous_owner: TeamMemberDto | null }> {
    if (actor.role !== 'super_admin')
      throw new ForbiddenError('Only the team owner (super_admin) transfers ownership');
    const outcome = await this.audit.audited(
      (tx) => this.members.transferOwnership(actor.teamId, userId, tx),
      (result) =>
        result.done
          ? memberEntry(actor, 'team.ownership_transferred', userId, {
              previous_owner_id: result.previousOwnerId,
            })
          : null,
    );
    if (!outcome.done && outcome.reason === 'not_member') throw new NotFoundError('Member');
    if (!outcome.done) throw new ConflictError('already_owner', 'This member already owns the team');
    const previous = outcome.previousOwnerId
      ? await this.members.findMember(actor.teamId, outcome.previousOwnerId)
      : null;
    return {
      owner: toMemberDto(await this.findOrThrow(actor.teamId, userId)),
      previous_owner: previous ? toMemberDto(previous) : null,
    };
  }

  private async findOrThrow(teamId: string, userId: string): Promise<MemberRow> {
    const member = await this.members.findMember(teamId, userId);
    if (!member) throw new NotFoundError('Member');
    return member;
  }
}

function memberChanged(): ConflictError {
  return new ConflictError('member_changed', 'The member changed meanwhile; reload and try again');
}

function memberEntry(
  actor: Actor,
  action: string,
  userId: string,
  details: Record<string, unknown>,
): AuditEntry {
  return { ...byCaller(actor), action, target: { type: 'member', id: userId }, outcome: 'success', details };
}
