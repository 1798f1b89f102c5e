import { certificateAssertionKey } from '@libs/providers/kit/certificate-credential.js';
import type { ClientAuthentication } from '@libs/providers/kit/client-credentials.js';
import { ProviderError } from '@libs/providers/provider-errors.js';

export interface EntraConnectorOptions {
  /**
   * Microsoft Graph's https origin, `https://graph.microsoft.com`, or a host the operator allows
   * (a simulator), which then serves the token endpoint too.
   */
  graphUrl: string;
  /** The directory (tenant) id, a GUID, or one of its verified domains. */
  tenantId: string;
  /** The app registration's application (client) id. */
  clientId: string;
  /** One of its client secrets, or: */
  clientSecret?: string;
  /**
   * A certificate uploaded to it, PEM, with its private key (what Microsoft recommends for
   * app-only access): the client then signs an assertion per token request (kit
   * certificate-credential.ts) instead of sending a secret.
   */
  clientCertificate?: string;
  /** Host patterns that may be called (the provider's cloud hosts and the operator's extra ones). */
  allowedHosts: readonly string[];
  /** A PEM CA to trust besides Node's bundled roots (the simulator's). */
  caCertPem?: string;
  userAgent?: string;
  /** Requests in flight at once; default 4. */
  maxConcurrency?: number;
  /** Share of each rate-limit bucket left free for the tenant's own tools, 0 <= h < 1; default 0.2. */
  headroom?: number;
  /**
   * The longest a restore's write waits for Graph to replicate an object the restore created,
   * ms (graph-replication.ts); 0 waits for nothing; default five minutes.
   */
  replicationWaitMs?: number;
  /**
   * The interval kept between requests to Graph's conditional access paths, ms; default
   * GRAPH_CONDITIONAL_ACCESS_SPACING's (Graph's 1 request a second per tenant there).
   */
  conditionalAccessIntervalMs?: number;
}

/** Graph's global cloud and its identity platform authority (Microsoft "National clouds"). */
export const GLOBAL_GRAPH_HOST = 'graph.microsoft.com';
export const GLOBAL_LOGIN_ORIGIN = 'https://login.microsoftonline.com';
/** The one scope of an app-only token: every application permission granted (client credentials flow). */
export const GRAPH_DEFAULT_SCOPE = 'https://graph.microsoft.com/.default';
export const TOKEN_TEMPLATE = '/{tenant}/oauth2/v2.0/token';
/** A tenant id: a GUID, or a domain name such as `contoso.onmicrosoft.com`. */
export const TENANT_ID =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?=.{4,253}$)([a-z0-9-]+\.)+[a-z]{2,63})$/i;

export const USER_AGENT = 'idp-backup-entra-connector/0.1';

/**
 * How the connector proves itself at the token endpoint: a client secret, or a client assertion
 * signed with the certificate's key (PS256, `x5t#S256`, aud the token endpoint: Microsoft identity
 * platform "certificate credentials").
 * @throws ProviderError `invalid_credentials` unless exactly one is given;
 *   `invalid_client_certificate` for a certificate that cannot sign
 */
export function clientAuthentication(options: EntraConnectorOptions): ClientAuthentication {
  const { clientSecret, clientCertificate } = options;
  if ((clientSecret === undefined) === (clientCertificate === undefined))
    throw new ProviderError(
      'An Entra ID connection takes a client_secret or a client_certificate, one of the two',
      'invalid_credentials',
    );
  return clientCertificate !== undefined
    ? { assertionKey: certificateAssertionKey(clientCertificate) }
    : { clientSecret: clientSecret! };
}
