import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { OidcPayloadEntity } from './oidc-payload.entity.js';
import type { OidcPayloadsRepository } from './oidc-payloads.repository.js';

/**
 * oidc-provider's storage for one model (Session, Grant, AuthorizationCode, RefreshToken,
 * Interaction, ...) in PostgreSQL, so every replica sees the same state. Generic over the
 * model: the rows carry the model name, the payload as jsonb and the secondary keys
 * oidc-provider looks things up by (grantId, uid, userCode). Expired rows are never returned
 * and are purged periodically (see AuthorizationServer).
 */
export class OidcPayloadAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly payloads: OidcPayloadsRepository,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const { grantId, userCode, uid } = payload;
    await this.payloads.save(this.model, id, payload, { grantId, userCode, uid }, expiresIn);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return toPayload(await this.payloads.findLive(this.model, 'id', id));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return toPayload(await this.payloads.findLive(this.model, 'uid', uid));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return toPayload(await this.payloads.findLive(this.model, 'userCode', userCode));
  }

  consume(id: string): Promise<void> {
    return this.payloads.markConsumed(this.model, id);
  }

  destroy(id: string): Promise<void> {
    return this.payloads.delete(this.model, id);
  }

  revokeByGrantId(grantId: string): Promise<void> {
    return this.payloads.deleteByGrantId(this.model, grantId);
  }
}

/** oidc-provider reads `consumed` (epoch seconds) to detect replay of single-use artifacts. */
function toPayload(row: OidcPayloadEntity | null): AdapterPayload | undefined {
  if (!row) return undefined;
  if (!row.consumedAt) return row.payload;
  return { ...row.payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) };
}
