import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import type { AssignableRole } from './membership-rules.js';
import { TeamInvitationEntity } from './team-invitation.entity.js';
import { type Transaction, within } from '@app/platform/database/transaction.js';

/** Pending invitations (`team_invitations` not yet accepted). Every method is scoped by team. */
@Injectable()
export class InvitationsRepository {
  constructor(
    @InjectRepository(TeamInvitationEntity) private readonly rows: Repository<TeamInvitationEntity>,
  ) {}

  /** The team's pending invitations, expired ones included, newest first. */
  listPending(teamId: string): Promise<TeamInvitationEntity[]> {
    return this.rows.find({
      where: { teamId, acceptedAt: IsNull() },
      order: { createdAt: 'DESC', id: 'ASC' },
    });
  }

  findPending(teamId: string, id: string): Promise<TeamInvitationEntity | null> {
    return this.rows.findOneBy({ teamId, id, acceptedAt: IsNull() });
  }

  /** @param email normalized. */
  findPendingByEmail(teamId: string, email: string): Promise<TeamInvitationEntity | null> {
    return this.rows.findOneBy({ teamId, email, acceptedAt: IsNull() });
  }

  /**
   * The pending invitation of `email` to the team, created or replaced (role, inviter, dates):
   * inviting an address again renews its invitation instead of adding a second one.
   * @param expiresInSeconds lifetime from now.
   */
  async upsertPending(
    input: {
      teamId: string;
      email: string;
      role: AssignableRole;
      invitedBy: string;
      expiresInSeconds: number;
    },
    tx?: Transaction,
  ): Promise<TeamInvitationEntity> {
    const rows = within(this.rows, tx);
    const [row]: Array<{ id: string }> = await rows.query(
      `INSERT INTO team_invitations (team_id, email, role, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))
       ON CONFLICT (team_id, email) WHERE accepted_at IS NULL DO UPDATE
       SET role = excluded.role, invited_by = excluded.invited_by,
           created_at = excluded.created_at, expires_at = excluded.expires_at
       RETURNING id`,
      [input.teamId, input.email, input.role, input.invitedBy, input.expiresInSeconds],
    );
    return rows.findOneByOrFail({ id: row.id });
  }

  /** Deletes a pending invitation. @returns false when there was none of that id in the team. */
  async deletePending(teamId: string, id: string, tx?: Transaction): Promise<boolean> {
    const result = await within(this.rows, tx).delete({ teamId, id, acceptedAt: IsNull() });
    return result.affected === 1;
  }
}
