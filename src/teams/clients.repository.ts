import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { OAuthClientEntity } from './oauth-client.entity.js';
import { type Transaction, within } from '@app/database/transaction.js';

/** Integration clients (`oauth_clients`). */
@Injectable()
export class ClientsRepository {
  constructor(@InjectRepository(OAuthClientEntity) private readonly rows: Repository<OAuthClientEntity>) {}

  async insert(client: Omit<OAuthClientEntity, 'createdAt' | 'revokedAt'>): Promise<void> {
    await this.rows.insert(client);
  }

  /** The client unless it is unknown or revoked: a revoked client no longer exists for authentication. */
  findActive(clientId: string): Promise<OAuthClientEntity | null> {
    return this.rows.findOneBy({ clientId, revokedAt: IsNull() });
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
