import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { Role } from '../common/permission.js';
import { TeamMemberEntity } from './team-member.entity.js';

/** Memberships (`team_members`). */
@Injectable()
export class MembersRepository {
  constructor(@InjectRepository(TeamMemberEntity) private readonly rows: Repository<TeamMemberEntity>) {}

  /** The user's current role in the team, or null when they are not a member (ids must be uuids). */
  async findRole(teamId: string, userId: string): Promise<Role | null> {
    const member = await this.rows.findOneBy({ teamId, userId });
    return member?.role ?? null;
  }
}
