import type { TeamClientDto } from './dto/team-client.dto.js';
import type { TeamInvitationDto } from './dto/team-invitation.dto.js';
import type { TeamMemberDto } from './dto/team-member.dto.js';
import type { TeamDto, UserDto } from './dto/team.dto.js';
import type { MemberRow } from './members.repository.js';
import type { OAuthClientEntity } from './oauth-client.entity.js';
import type { TeamInvitationEntity } from './team-invitation.entity.js';
import type { TeamEntity } from './team.entity.js';
import type { UserEntity } from './user.entity.js';

export function toTeamDto(team: TeamEntity): TeamDto {
  return { id: team.id, name: team.name, plan: team.plan, created_at: team.createdAt.toISOString() };
}

export function toUserDto(user: UserEntity): UserDto {
  return { id: user.id, email: user.email };
}

export function toMemberDto(row: MemberRow): TeamMemberDto {
  return {
    user_id: row.userId,
    email: row.email,
    name: row.name,
    role: row.role,
    joined_at: row.joinedAt.toISOString(),
  };
}

/** @param now decides `status`: an invitation past `expiresAt` can no longer be accepted. */
export function toInvitationDto(row: TeamInvitationEntity, now: Date): TeamInvitationDto {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invited_by: row.invitedBy,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    status: row.expiresAt > now ? 'pending' : 'expired',
  };
}

/** Never the secret hash. */
export function toClientDto(row: OAuthClientEntity): TeamClientDto {
  return {
    client_id: row.clientId,
    name: row.name,
    role: row.role,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}
