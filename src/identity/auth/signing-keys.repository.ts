import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { SigningKeyEntity } from './signing-key.entity.js';

/** A key about to be stored: its id and encrypted private JWK. */
export type NewSigningKey = Pick<SigningKeyEntity, 'kid' | 'privateJwkEnc'>;

/** Arbitrary, fixed id of the advisory lock that serialises the first-boot key creation. */
const FIRST_KEY_LOCK = 0x6f617574; // "oaut"

/** The authorization server's signing keys (`oauth_signing_keys`). */
@Injectable()
export class SigningKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The active (not retired) keys, newest first; when there is none, stores the one `create`
   * makes and returns it. A transaction-scoped advisory lock makes replicas that boot together
   * wait for each other, so exactly one of them creates the first key.
   */
  findActiveOrCreate(create: () => Promise<NewSigningKey>): Promise<SigningKeyEntity[]> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [FIRST_KEY_LOCK]);
      const active = await manager.find(SigningKeyEntity, {
        where: { retiredAt: IsNull() },
        order: { createdAt: 'DESC' },
      });
      if (active.length > 0) return active;
      return [await manager.save(manager.create(SigningKeyEntity, await create()))];
    });
  }
}
