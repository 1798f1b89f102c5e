import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { type Transaction, within } from '@app/platform/database/transaction.js';
import { ConnectionEntity } from './connection.entity.js';

/** Team-scoped access to connections; soft-deleted ones are invisible here. */
@Injectable()
export class ConnectionsRepository {
  constructor(@InjectRepository(ConnectionEntity) private readonly rows: Repository<ConnectionEntity>) {}

  /** Saves a new connection with a caller-chosen id (the id is bound into the secret's ciphertext). */
  insert(
    connection: Omit<ConnectionEntity, 'createdAt' | 'updatedAt' | 'deletedAt' | 'lastVerifiedAt'> & {
      lastVerifiedAt: Date;
    },
    tx?: Transaction,
  ): Promise<ConnectionEntity> {
    const rows = within(this.rows, tx);
    return rows.save(rows.create(connection));
  }

  /** Applies changed fields of a visible connection. */
  async update(
    teamId: string,
    id: string,
    changes: Partial<
      Pick<ConnectionEntity, 'orgName' | 'credentialsEnc' | 'publicCredentials' | 'lastVerifiedAt'>
    >,
    tx?: Transaction,
  ): Promise<void> {
    await within(this.rows, tx).update({ id, teamId, deletedAt: IsNull() }, changes);
  }

  /** Hides the connection; its backups stay until retention expires (spec "Connections"). */
  async softDelete(teamId: string, id: string, tx?: Transaction): Promise<void> {
    await within(this.rows, tx).update({ id, teamId, deletedAt: IsNull() }, { deletedAt: () => 'now()' });
  }

  findVisible(teamId: string, id: string): Promise<ConnectionEntity | null> {
    return this.rows.findOneBy({ id, teamId, deletedAt: IsNull() });
  }

  listForTeam(teamId: string): Promise<ConnectionEntity[]> {
    return this.rows.find({ where: { teamId, deletedAt: IsNull() }, order: { createdAt: 'ASC' } });
  }
}
