import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { OAuthClientEntity } from './oauth-client.entity.js';

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
}
