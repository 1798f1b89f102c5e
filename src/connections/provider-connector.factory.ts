import { Inject, Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import type { ConnectorStats, ProviderConnector } from '@libs/providers/provider-connector.js';
import type { ProviderKind } from '@libs/providers/provider-kind.js';
import { requireProvider } from '@libs/providers/registry.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { SERVICE_VERSION } from '@app/platform/config/version.js';

/** What a connector needs to reach one tenant. */
export interface ProviderCredentials {
  provider: ProviderKind;
  orgUrl: string;
  /** every credential field of the provider's descriptor, by its name (`client_id`...) */
  credentials: Readonly<Record<string, string>>;
}

/**
 * Builds provider connectors with the operator's outbound policy: only the provider's own clouds
 * plus PROVIDER_ALLOWED_HOSTS may be called (SSRF guard), trusting PROVIDER_CA_FILE if set.
 */
@Injectable()
export class ProviderConnectorFactory {
  private readonly extraAllowedHosts: readonly string[];
  private readonly caCertPem?: string;
  private readonly headroom: number;
  private readonly idleHeadroom?: number;
  private readonly replicationWaitSeconds: number;
  private readonly conditionalAccessIntervalMs: number;
  private readonly closedListeners: Array<(provider: ProviderKind, stats: ConnectorStats) => void> = [];

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.extraAllowedHosts = config.PROVIDER_ALLOWED_HOSTS;
    this.caCertPem = config.PROVIDER_CA_FILE ? readFileSync(config.PROVIDER_CA_FILE, 'utf8') : undefined;
    this.headroom = config.PROVIDER_RATE_LIMIT_HEADROOM;
    this.idleHeadroom = config.PROVIDER_RATE_LIMIT_IDLE_HEADROOM;
    this.replicationWaitSeconds = config.PROVIDER_REPLICATION_WAIT_SECONDS;
    this.conditionalAccessIntervalMs = config.GRAPH_CONDITIONAL_ACCESS_INTERVAL_MS;
  }

  /**
   * The connector module (and its HTTP client, undici) is loaded at the first call, not at boot: an
   * `api` process that never checks a connection never holds it.
   * @param restoreTypes the types a restore will write: the connector then also asks for their
   *   write scopes (default: the read scopes of a backup)
   * @throws ProviderError (`invalid_org_url`) or ProviderHostNotAllowedError before any request is
   *   made; ProviderError (`provider_not_available`) for a kind this build cannot connect to
   */
  async create(
    credentials: ProviderCredentials,
    restoreTypes?: readonly string[],
  ): Promise<ProviderConnector> {
    const connector = await requireProvider(credentials.provider).connect({
      orgUrl: credentials.orgUrl,
      credentials: credentials.credentials,
      extraAllowedHosts: this.extraAllowedHosts,
      caCertPem: this.caCertPem,
      userAgent: `idp-backup/${SERVICE_VERSION}`,
      headroom: this.headroom,
      idleHeadroom: this.idleHeadroom,
      replicationWaitSeconds: this.replicationWaitSeconds,
      conditionalAccessIntervalMs: this.conditionalAccessIntervalMs,
      restoreTypes,
    });
    if (this.closedListeners.length === 0) return connector;
    const close = connector.close.bind(connector);
    connector.close = async () => {
      try {
        await close();
      } finally {
        const stats = connector.stats();
        for (const listener of this.closedListeners) listener(credentials.provider, stats);
      }
    };
    return connector;
  }

  /**
   * Calls `listener` with what each connector created from now on sent, once it is closed (the
   * metrics' rate-limit counters). Connectors made before are not followed.
   */
  onClosed(listener: (provider: ProviderKind, stats: ConnectorStats) => void): void {
    this.closedListeners.push(listener);
  }
}
