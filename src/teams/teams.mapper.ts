import type { TeamDto, UserDto } from './dto/team.dto.js';
import type { TeamEntity } from './team.entity.js';
import type { UserEntity } from './user.entity.js';

export function toTeamDto(team: TeamEntity): TeamDto {
  return { id: team.id, name: team.name, plan: team.plan, created_at: team.createdAt.toISOString() };
}

export function toUserDto(user: UserEntity): UserDto {
  return { id: user.id, email: user.email };
}
