import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import { isStorableText, unstorableTextPath } from '@app/common/request-edge/storable-text.js';

/**
 * oidc-provider's storage, guarded against text PostgreSQL cannot store (NUL, unpaired
 * surrogates: common/request-edge/storable-text.ts). The authorization server parses its own
 * requests, ahead of the API's request edge, and hands their values (client ids, tokens, codes,
 * `state`, registered metadata) to its adapter: a NUL there was a database error and a 500
 * (docs/security.md "Request validation"). A key no stored row can have is simply not found; a payload that
 * cannot be stored is the client's `invalid_request` (RFC 6749 §5.2), answered 400 by oidc-provider.
 */
export class StorableTextAdapter implements Adapter {
  constructor(private readonly stored: Adapter) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const field = isStorableText(id) ? unstorableTextPath(payload) : 'id';
    if (field !== undefined)
      throw new errors.InvalidRequest(`${field || 'a value'} must not contain NUL or an unpaired surrogate`);
    await this.stored.upsert(id, payload, expiresIn);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return isStorableText(id) ? this.stored.find(id) : undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return isStorableText(uid) ? this.stored.findByUid(uid) : undefined;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return isStorableText(userCode) ? this.stored.findByUserCode(userCode) : undefined;
  }

  async consume(id: string): Promise<void> {
    if (isStorableText(id)) await this.stored.consume(id);
  }

  async destroy(id: string): Promise<void> {
    if (isStorableText(id)) await this.stored.destroy(id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    if (isStorableText(grantId)) await this.stored.revokeByGrantId(grantId);
  }
}
