import { randomBytes } from 'node:crypto';
import type { Adapter, AdapterPayload, ClientMetadata } from 'oidc-provider';
import type { TeamsService } from '@app/identity/teams/teams.service.js';
import { API_SCOPE } from '@app/common/api-scope.js';

/**
 * oidc-provider's `Client` storage, backed by the teams' integration clients (`oauth_clients`):
 * confidential clients allowed the `client_credentials` grant only. Unknown and revoked clients
 * are not found, so the token endpoint answers `invalid_client`. Clients are provisioned by the
 * CLI (TeamsService.createClient), never through oidc-provider, hence the refusing writers.
 */
export class IntegrationClientAdapter implements Adapter {
  /**
   * oidc-provider's client schema demands a `client_secret` for secret-based authentication,
   * but only a hash is stored. The secret check itself is replaced (see AuthorizationServer),
   * so the metadata carries a stand-in: random per process, known to nobody, and unused since
   * every HMAC and symmetric-encryption algorithm that would key off it is disabled.
   */
  private readonly secretStandIn = randomBytes(32).toString('base64url');

  constructor(private readonly teams: TeamsService) {}

  async find(clientId: string): Promise<AdapterPayload | undefined> {
    if (!(await this.teams.resolveClientActor(clientId))) return undefined;
    const metadata: ClientMetadata = {
      client_id: clientId,
      client_secret: this.secretStandIn,
      client_secret_expires_at: 0,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: API_SCOPE,
    };
    return metadata;
  }

  upsert(): Promise<void> {
    return refuse();
  }

  findByUid(): Promise<undefined> {
    return refuse();
  }

  findByUserCode(): Promise<undefined> {
    return refuse();
  }

  consume(): Promise<void> {
    return refuse();
  }

  destroy(): Promise<void> {
    return refuse();
  }

  revokeByGrantId(): Promise<void> {
    return refuse();
  }
}

function refuse(): Promise<never> {
  return Promise.reject(new Error('Integration clients are managed by TeamsService, not by oidc-provider'));
}
