import type { EntityManager } from 'typeorm';
import { TeamMemberEntity } from './team-member.entity.js';
import { TeamEntity } from './team.entity.js';
import type { UserEntity } from './user.entity.js';

/**
 * The user of that e-mail (matched on `lower(email)`), created when there is none. Runs inside
 * the caller's transaction. ON CONFLICT on the `lower(email)` index makes "create or reuse" safe
 * against a concurrent insert of the same address; the no-op update lets RETURNING give the
 * existing row.
 */
export async function upsertUserByEmail(manager: EntityManager, email: string): Promise<UserEntity> {
  const [user]: UserEntity[] = await manager.query(
    `INSERT INTO users (email) VALUES ($1)
     ON CONFLICT ((lower(email))) DO UPDATE SET email = users.email
     RETURNING id, email, name, created_at AS "createdAt"`,
    [email],
  );
  return user;
}

/**
 * Inside the caller's transaction: a team on `plan` (a row of `plans`, checked by the caller or
 * by its foreign key), its owner (see `upsertUserByEmail`) and the owner's `super_admin` membership.
 */
export async function insertTeamWithOwner(
  manager: EntityManager,
  input: { name: string; plan: string; ownerEmail: string },
): Promise<{ team: TeamEntity; owner: UserEntity }> {
  const owner = await upsertUserByEmail(manager, input.ownerEmail);
  const team = await manager.save(manager.create(TeamEntity, { name: input.name, plan: input.plan }));
  await manager.insert(TeamMemberEntity, { teamId: team.id, userId: owner.id, role: 'super_admin' });
  return { team, owner };
}
