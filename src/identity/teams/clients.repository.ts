import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import type { Role } from '@app/common/permission.js';
import { OAuthClientEntity } from './oauth-client.entity.js';
import { type Transaction, within } from '@app/platform/database/transaction.js';

/** An active client and the current role of the member who created it. */
export type ActiveClient = Pick<OAuthClientEntity, 'clientId' | 'teamId' | 'role' | 'createdBy'> & {
  creatorRole: Role;
  /** when the team's pending deletion is scheduled for, or null */
  teamDeletionAt: Date | null;
};

/** Integration clients (`oauth_clients`). */
@Injectable()
export class ClientsRepository {
  constructor(@InjectRepository(OAuthClientEntity) private readonly rows: Repository<OAuthClientEntity>) {}

  /** @returns the row as stored (its `created_at` is the database's). */
  async insert(
    client: Omit<OAuthClientEntity, 'createdAt' | 'revokedAt'>,
    tx?: Transaction,
  ): Promise<OAuthClientEntity> {
    const repository = within(this.rows, tx);
    await repository.insert(client);
    return repository.findOneByOrFail({ clientId: client.clientId });
  }

  /** The client unless it is unknown or revoked: a revoked client no longer exists for authentication. */
  findActive(clientId: string): Promise<OAuthClientEntity | null> {
    return this.rows.findOneBy({ clientId, revokedAt: IsNull() });
  }

  /**
   * The active client with the current role of the member who created it and the team's pending
   * deletion, in one query (it runs on every request an integration client makes). @returns null
   * when the client is unknown or revoked, or that member has left the team.
   */
  async findActiveWithCreatorRole(clientId: string): Promise<ActiveClient | null> {
    const [row] = (await this.rows.query(
      `SELECT c.client_id AS "clientId", c.team_id AS "teamId", c.role, c.created_by AS "createdBy",
              m.role AS "creatorRole", d.scheduled_for AS "teamDeletionAt"
         FROM oauth_clients c
         JOIN team_members m ON m.team_id = c.team_id AND m.user_id = c.created_by
         LEFT JOIN account_deletions d ON d.team_id = c.team_id
        WHERE c.client_id = $1 AND c.revoked_at IS NULL`,
      [clientId],
    )) as ActiveClient[];
    return row ?? null;
  }

  /** Every client of the team, revoked ones included, newest first. */
  listByTeam(teamId: string): Promise<OAuthClientEntity[]> {
    return this.rows.find({ where: { teamId }, order: { createdAt: 'DESC', clientId: 'ASC' } });
  }

  /** The team's client unless unknown, another team's or revoked. */
  findActiveInTeam(teamId: string, clientId: string): Promise<OAuthClientEntity | null> {
    return this.rows.findOneBy({ teamId, clientId, revokedAt: IsNull() });
  }

  /** Stamps `revoked_at`. @returns false when the client is unknown in the team or already revoked. */
  async revoke(teamId: string, clientId: string, tx?: Transaction): Promise<boolean> {
    const result = await within(this.rows, tx).update(
      { teamId, clientId, revokedAt: IsNull() },
      { revokedAt: () => 'now()' },
    );
    return result.affected === 1;
  }
}
