import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import type { Role } from '@app/common/permission.js';
import type { Membership } from './dto/team.dto.js';
import { TeamMemberEntity } from './team-member.entity.js';
import { type Transaction, within } from '@app/platform/database/transaction.js';

/** A membership with its user's address, as the admin console lists it. */
export interface MemberRow {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  joinedAt: Date;
}

const MEMBER_SELECT = `SELECT m.user_id AS "userId", u.email, u.name, m.role, m.created_at AS "joinedAt"
  FROM team_members m JOIN users u ON u.id = m.user_id`;

/** Outcome of `transferOwnership`. */
export type TransferOutcome =
  { done: true; previousOwnerId: string | null } | { done: false; reason: 'not_member' | 'already_owner' };

/** Memberships (`team_members`). Every method is scoped by team. */
@Injectable()
export class MembersRepository {
  constructor(
    @InjectRepository(TeamMemberEntity) private readonly rows: Repository<TeamMemberEntity>,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * The user's current role in the team and the team's pending deletion (when it is scheduled
   * for, or null), in one query: it runs on every request a signed-in user makes.
   * @returns null when they are not a member (ids must be uuids)
   */
  async findRoleAndTeamDeletion(
    teamId: string,
    userId: string,
  ): Promise<{ role: Role; teamDeletionAt: Date | null } | null> {
    const [row] = (await this.dataSource.query(
      `SELECT m.role, d.scheduled_for AS "teamDeletionAt"
         FROM team_members m LEFT JOIN account_deletions d ON d.team_id = m.team_id
        WHERE m.team_id = $1 AND m.user_id = $2`,
      [teamId, userId],
    )) as Array<{ role: Role; teamDeletionAt: Date | null }>;
    return row ?? null;
  }

  /** Every team the user belongs to, by name (then id). */
  listTeamsOfUser(userId: string): Promise<Membership[]> {
    return this.dataSource.query(
      `SELECT t.id AS "teamId", t.name AS "teamName", m.role, d.scheduled_for AS "deletionScheduledFor"
         FROM team_members m
         JOIN teams t ON t.id = m.team_id
         LEFT JOIN account_deletions d ON d.team_id = m.team_id
        WHERE m.user_id = $1
        ORDER BY t.name, t.id`,
      [userId],
    );
  }

  /** The role in the team of the user of that address (`lower(users.email)`), or null. */
  async findRoleByEmail(teamId: string, normalizedEmail: string): Promise<Role | null> {
    const rows: Array<{ role: Role }> = await this.dataSource.query(
      `SELECT m.role FROM team_members m JOIN users u ON u.id = m.user_id
       WHERE m.team_id = $1 AND lower(u.email) = $2`,
      [teamId, normalizedEmail],
    );
    return rows[0]?.role ?? null;
  }

  /** Every member of the team, oldest first. */
  listMembers(teamId: string): Promise<MemberRow[]> {
    return this.dataSource.query(`${MEMBER_SELECT} WHERE m.team_id = $1 ORDER BY m.created_at, u.email`, [
      teamId,
    ]);
  }

  /** One member of the team, or null. */
  async findMember(teamId: string, userId: string): Promise<MemberRow | null> {
    const rows: MemberRow[] = await this.dataSource.query(
      `${MEMBER_SELECT} WHERE m.team_id = $1 AND m.user_id = $2`,
      [teamId, userId],
    );
    return rows[0] ?? null;
  }

  /**
   * Sets the member's role if it is still `from` (compare-and-set: the caller's permission
   * check was made against `from`, so a concurrent change must not slip past it).
   * @returns false when the member is gone or their role is no longer `from`.
   */
  async changeRole(teamId: string, userId: string, from: Role, to: Role, tx?: Transaction): Promise<boolean> {
    const result = await within(this.rows, tx).update({ teamId, userId, role: from }, { role: to });
    return result.affected === 1;
  }

  /**
   * Removes the member if their role is still `expectedRole`, and in the same transaction
   * revokes the integration clients they created in this team (they acted for this member).
   * @returns false when the member is gone or their role changed meanwhile.
   */
  remove(teamId: string, userId: string, expectedRole: Role, tx?: Transaction): Promise<boolean> {
    return this.inTransaction(tx, async (manager) => {
      const deleted = await manager.delete(TeamMemberEntity, { teamId, userId, role: expectedRole });
      if (deleted.affected !== 1) return false;
      await manager.query(
        `UPDATE oauth_clients SET revoked_at = now()
         WHERE team_id = $1 AND created_by = $2 AND revoked_at IS NULL`,
        [teamId, userId],
      );
      return true;
    });
  }

  /**
   * Makes `toUserId` the team's `super_admin` and its current owner an `admin`, atomically:
   * transfers of one team are serialized on the team's row, and the old owner is demoted before
   * the new one is promoted, so the one-owner index (`team_members_one_owner`) holds at every
   * statement.
   */
  transferOwnership(teamId: string, toUserId: string, tx?: Transaction): Promise<TransferOutcome> {
    return this.inTransaction(tx, async (manager) => {
      await manager.query('SELECT 1 FROM teams WHERE id = $1 FOR UPDATE', [teamId]);
      const rows: Array<{ user_id: string; role: Role }> = await manager.query(
        `SELECT user_id, role FROM team_members
         WHERE team_id = $1 AND (role = 'super_admin' OR user_id = $2)
         FOR UPDATE`,
        [teamId, toUserId],
      );
      const owner = rows.find((row) => row.role === 'super_admin');
      if (!rows.some((row) => row.user_id === toUserId)) return { done: false, reason: 'not_member' };
      if (owner?.user_id === toUserId) return { done: false, reason: 'already_owner' };
      if (owner) await manager.update(TeamMemberEntity, { teamId, userId: owner.user_id }, { role: 'admin' });
      await manager.update(TeamMemberEntity, { teamId, userId: toUserId }, { role: 'super_admin' });
      return { done: true, previousOwnerId: owner?.user_id ?? null };
    });
  }

  /** Runs `work` in `tx` when given, else in a transaction of its own. */
  private inTransaction<T>(
    tx: Transaction | undefined,
    work: (manager: Transaction) => Promise<T>,
  ): Promise<T> {
    return tx ? work(tx) : this.dataSource.transaction(work);
  }
}
