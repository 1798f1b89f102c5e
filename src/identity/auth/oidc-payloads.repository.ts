import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { OidcPayloadEntity } from './oidc-payload.entity.js';

/** Which column a lookup goes through: the primary id, or one of oidc-provider's secondary keys. */
export type PayloadLookup = 'id' | 'uid' | 'userCode';

/** oidc-provider's stored artifacts (`oidc_payloads`); an expired row is invisible to every read. */
@Injectable()
export class OidcPayloadsRepository {
  constructor(@InjectRepository(OidcPayloadEntity) private readonly rows: Repository<OidcPayloadEntity>) {}

  /**
   * Inserts or replaces the artifact. `expiresIn` (seconds) counts from the database clock,
   * the clock every read compares against. A consumed artifact stays consumed.
   */
  async save(
    type: string,
    id: string,
    payload: Record<string, unknown>,
    index: { grantId?: string; userCode?: string; uid?: string },
    expiresIn: number | undefined,
  ): Promise<void> {
    await this.rows.query(
      `INSERT INTO oidc_payloads (id, type, payload, grant_id, user_code, uid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))
       ON CONFLICT (id, type) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
         user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
      [
        id,
        type,
        payload,
        index.grantId ?? null,
        index.userCode ?? null,
        index.uid ?? null,
        expiresIn ?? null,
      ],
    );
  }

  /** The live (unexpired) artifact whose `by` column equals `value`. */
  findLive(type: string, by: PayloadLookup, value: string): Promise<OidcPayloadEntity | null> {
    return this.rows
      .createQueryBuilder('p')
      .where(`p.type = :type AND p.${by} = :value`, { type, value })
      .andWhere('(p.expiresAt IS NULL OR p.expiresAt > now())')
      .getOne();
  }

  /** Marks the artifact consumed (single-use codes and rotated refresh tokens). */
  async markConsumed(type: string, id: string): Promise<void> {
    await this.rows.query('UPDATE oidc_payloads SET consumed_at = now() WHERE id = $1 AND type = $2', [
      id,
      type,
    ]);
  }

  async delete(type: string, id: string): Promise<void> {
    await this.rows.delete({ type, id });
  }

  /** Deletes every artifact of the grant (RFC 7009 revocation cascades through the grant). */
  async deleteByGrantId(type: string, grantId: string): Promise<void> {
    await this.rows.delete({ type, grantId });
  }

  /** Deletes expired rows; reads already ignore them, this only reclaims space. @returns rows removed. */
  async purgeExpired(): Promise<number> {
    const result = await this.rows.createQueryBuilder().delete().where('expires_at <= now()').execute();
    return result.affected ?? 0;
  }
}
