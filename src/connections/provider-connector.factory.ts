import { Inject, Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { oktaRestoreScopes } from '@libs/providers/okta/okta-scopes.js';
import type { OktaResourceType } from '@libs/providers/resource-types.js';
import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import { APP_CONFIG } from '@app/config/config.module.js';
import { type AppConfig, OKTA_CLOUD_HOSTS } from '@app/config/app-config.js';
import { SERVICE_VERSION } from '@app/config/version.js';
import type { ProviderKind } from './provider-kind.js';

/** What a connector needs to reach one tenant. */
export interface ProviderCredentials {
  provider: ProviderKind;
  orgUrl: string;
  clientId: string;
  clientSecret: string;
}

/**
 * Builds provider connectors with the operator's outbound policy: only Okta's clouds plus
 * PROVIDER_ALLOWED_HOSTS may be called (SSRF guard), trusting PROVIDER_CA_FILE if set.
 */
@Injectable()
export class ProviderConnectorFactory {
  private readonly allowedHosts: readonly string[];
  private readonly caCertPem?: string;
  private readonly headroom: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.allowedHosts = [...OKTA_CLOUD_HOSTS, ...config.PROVIDER_ALLOWED_HOSTS];
    this.caCertPem = config.PROVIDER_CA_FILE ? readFileSync(config.PROVIDER_CA_FILE, 'utf8') : undefined;
    this.headroom = config.OKTA_RATE_LIMIT_HEADROOM;
  }

  /**
   * The connector module (and its HTTP client, undici) is loaded at the first call, not at boot: an
   * `api` process that never checks a connection never holds it.
   * @param restoreTypes the types a restore will write: the connector then also asks for their
   *   write scopes (default: the read scopes of a backup)
   * @throws ProviderError (`invalid_org_url`) or ProviderHostNotAllowedError before any request is made.
   */
  async create(
    credentials: ProviderCredentials,
    restoreTypes?: readonly string[],
  ): Promise<ProviderConnector> {
    const { OktaConnector } = await import('@libs/providers/okta/okta-connector.js');
    return new OktaConnector({
      orgUrl: credentials.orgUrl,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      allowedHosts: this.allowedHosts,
      caCertPem: this.caCertPem,
      userAgent: `idp-backup/${SERVICE_VERSION}`,
      headroom: this.headroom,
      scopes: restoreTypes && oktaRestoreScopes(restoreTypes as OktaResourceType[]),
    });
  }
}
