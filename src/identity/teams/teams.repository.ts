import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TeamMemberEntity } from './team-member.entity.js';
import { insertTeamWithOwner } from './team-rows.repository.js';
import { TeamEntity } from './team.entity.js';
import { UserEntity } from './user.entity.js';

/** Teams, their users and memberships. */
@Injectable()
export class TeamsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * In one transaction: the team, its owner (the user of that e-mail, matched case-insensitively,
   * or a new one) and the owner's `super_admin` membership.
   * @returns null when `plan` is not a row of `plans` (nothing is written).
   */
  createTeamWithOwner(input: {
    name: string;
    plan: string;
    ownerEmail: string;
  }): Promise<{ team: TeamEntity; owner: UserEntity } | null> {
    return this.dataSource.transaction(async (manager) => {
      const plans: unknown[] = await manager.query('SELECT 1 FROM plans WHERE name = $1', [input.plan]);
      if (plans.length === 0) return null;
      return insertTeamWithOwner(manager, input);
    });
  }

  /** The team's owner (its one `super_admin`), or null when the team does not exist. */
  async findOwner(teamId: string): Promise<UserEntity | null> {
    return this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('user')
      .innerJoin(TeamMemberEntity, 'member', 'member.user_id = user.id')
      .where('member.team_id = :teamId AND member.role = :role', { teamId, role: 'super_admin' })
      .getOne();
  }

  findUser(userId: string): Promise<UserEntity | null> {
    return this.dataSource.getRepository(UserEntity).findOneBy({ id: userId });
  }

  findTeam(teamId: string): Promise<TeamEntity | null> {
    return this.dataSource.getRepository(TeamEntity).findOneBy({ id: teamId });
  }
}
