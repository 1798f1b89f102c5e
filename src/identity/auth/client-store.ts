import type { Adapter, AdapterPayload } from 'oidc-provider';
import { hashClientSecret } from '@app/identity/teams/client-secret.js';
import { isIntegrationClientId } from './client-policy.js';

/**
 * oidc-provider's `Client` storage: integration clients (`ic_...`) come from the teams'
 * `oauth_clients` (read only); clients registered through RFC 7591 (`rc_...`) live in
 * `oidc_payloads` with no expiry. A registered client's secret is stored as its SHA-256
 * (teams/client-secret.ts), like every other secret of the service; the plaintext reaches the
 * registrant once, in the registration response, and the secret check is replaced accordingly
 * (AuthorizationServer). Client ID Metadata Document clients (https URLs) are found nowhere
 * here, so oidc-provider fetches their document.
 */
export class ClientStore implements Adapter {
  constructor(
    private readonly integration: Adapter,
    private readonly registered: Adapter,
  ) {}

  find(clientId: string): Promise<AdapterPayload | undefined> {
    return this.pick(clientId).find(clientId);
  }

  upsert(clientId: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const secret = payload.client_secret;
    const stored =
      typeof secret === 'string' ? { ...payload, client_secret: hashClientSecret(secret) } : payload;
    return this.pick(clientId).upsert(clientId, stored, expiresIn);
  }

  destroy(clientId: string): Promise<void> {
    return this.pick(clientId).destroy(clientId);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.registered.findByUid(uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.registered.findByUserCode(userCode);
  }

  consume(clientId: string): Promise<void> {
    return this.pick(clientId).consume(clientId);
  }

  revokeByGrantId(grantId: string): Promise<void> {
    return this.registered.revokeByGrantId(grantId);
  }

  private pick(clientId: string): Adapter {
    return isIntegrationClientId(clientId) ? this.integration : this.registered;
  }
}
