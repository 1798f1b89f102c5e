import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Role } from '@app/common/permission.js';
import { insertTeamWithOwner, upsertUserByEmail } from './team-rows.repository.js';

/** Who a signed-in person acts as: a user and one of their memberships. */
export interface SignInMembership {
  userId: string;
  teamId: string;
  role: Role;
}

/** Settings of a team created at sign-in when self-service team creation is on. */
export interface SelfServiceTeam {
  name: string;
  plan: string;
}

/** The data side of `TeamsService.resolveSignIn`: one transaction per sign-in. */
@Injectable()
export class SignInRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * In one transaction, serialized per address by an advisory lock (two concurrent first
   * sign-ins of one address create one user and at most one team):
   * 1. every pending, unexpired invitation of `email` is accepted: the user is created if
   *    needed and joins each team with the invited role (an existing membership keeps its role);
   * 2. the membership joined most recently (then the smallest team id) is the answer;
   * 3. with no membership, `selfService` (when given) creates a team whose owner is this user.
   * @param email normalized (email-address.ts).
   * @returns null when the address has no membership and `selfService` is null (nothing written).
   */
  resolve(email: string, selfService: SelfServiceTeam | null): Promise<SignInMembership | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`sign-in:${email}`]);
      await acceptPendingInvitations(manager, email);
      const membership = await latestMembership(manager, email);
      if (membership || !selfService) return membership;
      const { team, owner } = await insertTeamWithOwner(manager, { ...selfService, ownerEmail: email });
      return { userId: owner.id, teamId: team.id, role: 'super_admin' };
    });
  }
}

async function acceptPendingInvitations(manager: EntityManager, email: string): Promise<void> {
  const pending: Array<{ id: string }> = await manager.query(
    `SELECT id FROM team_invitations
     WHERE email = $1 AND accepted_at IS NULL AND expires_at > now()
     FOR UPDATE`,
    [email],
  );
  if (pending.length === 0) return;
  const user = await upsertUserByEmail(manager, email);
  const ids = pending.map((row) => row.id);
  await manager.query(
    `INSERT INTO team_members (team_id, user_id, role)
     SELECT team_id, $2, role FROM team_invitations WHERE id = ANY($1)
     ON CONFLICT (team_id, user_id) DO NOTHING`,
    [ids, user.id],
  );
  await manager.query(
    'UPDATE team_invitations SET accepted_at = now(), accepted_by = $2 WHERE id = ANY($1)',
    [ids, user.id],
  );
}

async function latestMembership(manager: EntityManager, email: string): Promise<SignInMembership | null> {
  const rows: SignInMembership[] = await manager.query(
    `SELECT m.user_id AS "userId", m.team_id AS "teamId", m.role
     FROM team_members m JOIN users u ON u.id = m.user_id
     WHERE lower(u.email) = $1
     ORDER BY m.created_at DESC, m.team_id
     LIMIT 1`,
    [email],
  );
  return rows[0] ?? null;
}
