import { certificateAssertionKey } from '@libs/providers/kit/certificate-credential.js';
import {
  type ClientAuthentication,
  ClientCredentialsTokenSource,
} from '@libs/providers/kit/client-credentials.js';
import { ConnectorRuntime, httpsOrigin } from '@libs/providers/kit/connector-runtime.js';
import { parentTypes, partsInOrder, typesInOrder } from '@libs/providers/kit/catalog-collector.js';
import { retryAfterSignal } from '@libs/providers/kit/retry-after.js';
import type {
  ChangeAttribution,
  CollectOptions,
  ConfigurationChange,
  ConnectorStats,
  DeletedRecord,
  EncodedCollectOptions,
  EncodedResourcePart,
  ProviderConnector,
  ResourceCursors,
  ResourcePart,
} from '@libs/providers/provider-connector.js';
import { LogWindowExceededError, ProviderError } from '@libs/providers/provider-errors.js';
import { parseSince } from '@libs/providers/kit/since-instant.js';
import type { ProviderRestorer, RestoreWriteOptions } from '@libs/providers/provider-restore.js';
import type { ResourceType } from '@libs/records/resource-record.js';

import { assertPermissionsGranted, grantedRoles } from './entra-permissions.js';
import { AUDIT_LOG_PERMISSION, auditRetentionDays, directoryAudits } from './entra-audit-log.js';
import { attributionFromAudits } from './entra-attribution.js';
import { configurationChangeOf } from './entra-drift.js';
import { ENTRA_NOT_CAPTURED } from './entra-not-captured.js';
import {
  ENTRA_RESOURCE_TYPES,
  ENTRA_TYPE_DEFINITIONS,
  entraBackupPermissions,
} from './entra-resource-catalog.js';
import { entraParentOf } from './entra-catalog-types.js';
import { EntraDeltaReader } from './entra-delta.js';
import { deltaPathOf, EntraDeltaCursors, withCursorFirst } from './entra-delta-cursors.js';
import { nativeRecoveryError } from './entra-native-recovery.js';
import { EntraCollector } from './entra-collector.js';
import { encodeEntraPage } from './entra-page-worker.js';
import { GraphApiClient, type GraphObject } from './graph-api-client.js';
import { EntraRestorer } from './restore/entra-restorer.js';
import {
  GRAPH_CONDITIONAL_ACCESS_SPACING,
  GRAPH_RU_WINDOW_MS,
  GRAPH_WRITE_QUOTA,
  graphResourceUnitSignal,
  graphResourceUnitsPer10s,
} from './graph-rate-limits.js';

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
const GLOBAL_GRAPH_HOST = 'graph.microsoft.com';
const GLOBAL_LOGIN_ORIGIN = 'https://login.microsoftonline.com';
/** The one scope of an app-only token: every application permission granted (client credentials flow). */
const GRAPH_DEFAULT_SCOPE = 'https://graph.microsoft.com/.default';
const TOKEN_TEMPLATE = '/{tenant}/oauth2/v2.0/token';
/** A tenant id: a GUID, or a domain name such as `contoso.onmicrosoft.com`. */
const TENANT_ID =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?=.{4,253}$)([a-z0-9-]+\.)+[a-z]{2,63})$/i;

const USER_AGENT = 'idp-backup-entra-connector/0.1';

/**
 * Backs up a Microsoft Entra ID tenant through Microsoft Graph v1.0 with an app registration's
 * client credentials (the identity platform's client credentials flow, with a client secret or a
 * certificate). Implements ProviderConnector: `collect()` streams each type of
 * ENTRA_RESOURCE_TYPES, incrementally through Graph's delta queries for the types that have one
 * (`collect`), the others listed in full.
 *
 * Two origins are called, the identity platform's for tokens and Graph's for reads, each through
 * its own HttpTransport (the SSRF guard pins one origin) sharing the connection pool, the
 * rate-limit governor (Graph's fractional `Retry-After`) and the stats.
 *
 * @throws ProviderError `invalid_org_url` when `graphUrl` is not an https origin, `invalid_tenant_id`,
 *   `invalid_credentials` / `invalid_client_certificate` (clientAuthentication), ProviderHostNotAllowedError for a host not allowed: from the constructor, before any request.
 */
export class EntraConnector implements ProviderConnector {
  readonly resourceTypes: readonly ResourceType[] = ENTRA_RESOURCE_TYPES;
  readonly notCaptured = ENTRA_NOT_CAPTURED;
  private readonly runtime: ConnectorRuntime;
  private readonly tokens: ClientCredentialsTokenSource;
  private readonly graph: GraphApiClient;
  private readonly deltas: EntraDeltaReader;
  private readonly cursors: EntraDeltaCursors;
  /** Users listed so far: the tenant's size, which sets Graph's resource-unit budget. */
  private readonly seen = { users: 0 };
  private readonly maxConcurrency: number;
  private readonly clientId: string;
  private readonly replicationWaitMs?: number;

  constructor(options: EntraConnectorOptions) {
    const graphOrigin = httpsOrigin(
      options.graphUrl,
      'The Graph URL must be an https origin such as https://graph.microsoft.com',
    );
    const graphHost = new URL(graphOrigin).host;
    if (!TENANT_ID.test(options.tenantId))
      throw new ProviderError(
        'tenant_id must be the directory (tenant) id, a GUID, or one of its verified domains',
        'invalid_tenant_id',
      );
    this.runtime = new ConnectorRuntime({
      provider: 'Microsoft Graph',
      origins: [graphOrigin],
      allowedHosts: options.allowedHosts,
      caCertPem: options.caCertPem,
      userAgent: options.userAgent ?? USER_AGENT,
      pacing: {
        signals: [retryAfterSignal, graphResourceUnitSignal],
        // The tenant's size is learnt as its users are listed: the smallest budget until then.
        budget: { units: () => graphResourceUnitsPer10s(this.seen.users), windowMs: GRAPH_RU_WINDOW_MS },
        spacing: [
          options.conditionalAccessIntervalMs === undefined
            ? GRAPH_CONDITIONAL_ACCESS_SPACING
            : { ...GRAPH_CONDITIONAL_ACCESS_SPACING, minIntervalMs: options.conditionalAccessIntervalMs },
        ],
        quotas: [GRAPH_WRITE_QUOTA],
      },
      maxConcurrency: options.maxConcurrency,
      headroom: options.headroom,
    });
    const loginOrigin = graphHost === GLOBAL_GRAPH_HOST ? GLOBAL_LOGIN_ORIGIN : graphOrigin;
    this.maxConcurrency = this.runtime.maxConcurrency;
    this.clientId = options.clientId;
    this.replicationWaitMs = options.replicationWaitMs;
    this.tokens = this.runtime.tokenSource(loginOrigin, {
      provider: 'Microsoft Entra ID',
      tokenUrl: new URL(`/${encodeURIComponent(options.tenantId)}/oauth2/v2.0/token`, loginOrigin),
      template: TOKEN_TEMPLATE,
      clientId: options.clientId,
      ...clientAuthentication(options),
      scopes: [GRAPH_DEFAULT_SCOPE],
      notBearerHint: 'Graph accepts only Bearer tokens',
    });
    this.graph = new GraphApiClient(this.runtime.transport(graphOrigin), this.tokens, graphOrigin);
    this.deltas = new EntraDeltaReader(this.graph, graphOrigin);
    this.cursors = new EntraDeltaCursors(this.graph, this.deltas);
  }

  /**
   * Fetches a token and checks its `roles` claim holds every application permission a backup
   * needs (entraBackupPermissions) and the directory audit's (AuditLog.Read.All: drift and who
   * changed what), as a connection is created or its credentials changed. A backup itself does
   * not need the audit's: without it, drift and attribution say the permission is missing.
   * @throws ProviderAuthError for refused credentials or naming the missing permissions;
   *   ProviderError `provider_unreachable` on network or TLS failure
   */
  async verifyCredentials(): Promise<void> {
    const token = await this.tokens.accessToken();
    assertPermissionsGranted([...entraBackupPermissions(), AUDIT_LOG_PERMISSION], grantedRoles(token));
  }

  /**
   * Streams `types` (default all) in dependency order, one part per type, records as pages
   * arrive; a type with a Graph delta function gives a cursor (a delta link), and with its cursor
   * from a base comes as the changes of the link's round; with `encodeWithout`, the listed parts of
   * ENCODABLE_TYPES as EncodedRecords. How, and why: libs/providers/entra/README.md ("Collection",
   * "Cursors and delta rounds").
   *
   * @throws ProviderError `unknown_resource_type`; `invalid_cursor` for a cursor that is not a
   *   delta link of its type's Graph path on this tenant, or of a type with no delta
   */
  collect(options: EncodedCollectOptions): AsyncIterable<EncodedResourcePart>;
  collect(options?: CollectOptions): AsyncIterable<ResourcePart>;
  async *collect(
    options: CollectOptions & Partial<EncodedCollectOptions> = {},
  ): AsyncIterable<EncodedResourcePart> {
    const types = typesInOrder(ENTRA_RESOURCE_TYPES, options.types, 'Entra ID');
    const links = this.cursors.linksOf(options.cursors ?? {}, new Set(types));
    const parents = parentTypes(types, (type) => entraParentOf(ENTRA_TYPE_DEFINITIONS[type]));
    const { encodeWithout } = options;
    const encoding =
      encodeWithout === undefined ? undefined : { encode: encodeEntraPage, volatileFields: encodeWithout };
    const collector = new EntraCollector(
      this.graph,
      this.maxConcurrency,
      parents,
      this.seen,
      encoding,
      new Set(types),
    );
    // After a native recovery since the base, every delta type is listed in full.
    if (links.size > 0 && (await this.cursors.recoveredSince(links, options.signal))) links.clear();
    yield* partsInOrder(
      types,
      async (type): Promise<EncodedResourcePart> => {
        const link = links.get(type);
        const round = link && (await this.cursors.roundOrExpired(link.link, options.signal));
        if (round) {
          const records = collector.changes(type, round, options.signal);
          return { type, delta: { kind: 'changed' }, cursor: round.cursor, records };
        }
        const part: EncodedResourcePart = { type, records: collector.part(type, options.signal) };
        const tracked = deltaPathOf(type);
        if (tracked) {
          const { select } = ENTRA_TYPE_DEFINITIONS[tracked.owner];
          const cursor = this.deltas.latest(tracked.path, select, options.signal);
          part.records = withCursorFirst(part, part.records, cursor);
        }
        return part;
      },
      options.signal,
    );
  }

  /**
   * Objects and memberships removed since the cursors' delta links: each round's `@removed`
   * objects (in the deleted items or gone for good) and removed `members@delta`
   * (`<groupId>:<memberId>`). A removed group is reported for `group_membership` cursors too, so
   * its memberships go with it. The rounds are kept for `collect` with the same cursors.
   *
   * @throws ProviderError `invalid_cursor` as `collect`; `cursor_expired` when Graph no longer has
   *   a link's sync state (410 Gone; a link older than seven days), or a native recovery ran since
   *   the earliest cursor (entra-native-recovery.ts): the backup then runs full
   */
  async *deletedSince(
    cursors: ResourceCursors,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<DeletedRecord> {
    const links = this.cursors.linksOf(cursors, new Set(Object.keys(cursors)));
    if (links.size > 0 && (await this.cursors.recoveredSince(links, options.signal)))
      throw nativeRecoveryError();
    for (const [type, { link }] of links) {
      const round = await this.deltas.round(link, link.pathname, options.signal);
      const relation = ENTRA_TYPE_DEFINITIONS[type].deltaOf;
      const owner = relation?.parent ?? type;
      for (const id of round.removed) yield { type: owner, id };
      if (!relation) continue;
      for (const [id, change] of round.links.get(relation.relationship) ?? [])
        if (change.removed) yield { type, id };
    }
  }

  /**
   * The directory audit's records since `since` (ISO 8601): Graph's `directoryAudit` objects as
   * Graph answers them (activityDisplayName, category, initiatedBy, targetResources with
   * modifiedProperties...), newest first, read page by page under the connector's resource-unit
   * governor: who changed what, for drift and attribution. Records older than the log keeps
   * (auditLogRetentionDays) are simply not there.
   * @throws ProviderError `invalid_since`; ProviderAuthError naming AuditLog.Read.All when the
   *   token does not carry it (nor Directory.Read.All), before any read
   */
  async *readDirectoryAudits(
    since: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<GraphObject> {
    const from = new Date(parseSince(since)).toISOString();
    const roles = grantedRoles(await this.tokens.accessToken());
    assertPermissionsGranted([AUDIT_LOG_PERMISSION], roles, 'reading the directory audit log');
    yield* directoryAudits(this.graph, from, options.signal);
  }

  /** Days the tenant's directory audit reaches back: 7, or 30 with Entra ID P1 or P2. */
  auditLogRetentionDays(options: { signal?: AbortSignal } = {}): Promise<number> {
    return auditRetentionDays(this.graph, options.signal);
  }

  /**
   * Configuration changes the directory audit records since `since` (entra-drift.ts), in Graph's
   * order (newest first): failed activities and activity that is not configuration left out.
   * @throws ProviderError `invalid_since`; LogWindowExceededError `since_too_old` when `since` is
   *   older than the log keeps (7 days, 30 with Entra ID P1 or P2), naming the oldest instant held
   */
  async *configurationChangesSince(
    since: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<ConfigurationChange> {
    await this.assertLogHolds(since, options);
    for await (const audit of this.readDirectoryAudits(since, options)) {
      const change = configurationChangeOf(audit);
      if (change) yield change;
    }
  }

  /**
   * Who changed which object between `since` and `until` (ISO 8601), oldest first, from the
   * directory audit (entra-attribution.ts): configuration changes that succeeded, one entry per
   * target resource; this app registration's own writes are `byThisService`.
   * @throws as `configurationChangesSince`: `invalid_since` (also for an `until` that is not an
   *   instant), `since_too_old`, ProviderAuthError naming AuditLog.Read.All
   */
  async *readChangeAttribution(
    since: string,
    until: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<ChangeAttribution> {
    await this.assertLogHolds(since, options);
    const untilMs = Date.parse(until);
    if (Number.isNaN(untilMs))
      throw new ProviderError(
        'until must be an ISO 8601 instant, such as 2025-06-01T12:00:00Z',
        'invalid_since',
      );
    const audits: GraphObject[] = [];
    for await (const audit of this.readDirectoryAudits(since, options))
      if (Date.parse(String(audit.activityDateTime)) <= untilMs) audits.push(audit);
    yield* attributionFromAudits(audits, this.clientId);
  }

  /**
   * @throws ProviderError `invalid_since`; LogWindowExceededError `since_too_old` when `since` is
   *   older than the log keeps (7 days, 30 with Entra ID P1 or P2), naming the oldest instant held
   */
  private async assertLogHolds(since: string, options: { signal?: AbortSignal }): Promise<void> {
    const sinceMs = parseSince(since);
    const days = await this.auditLogRetentionDays(options);
    const heldSince = Date.now() - days * 86_400_000;
    if (sinceMs < heldSince)
      throw new LogWindowExceededError(
        `${since} is older than the ${days} days Microsoft Entra ID keeps its directory audit log${days === 7 ? ' without an Entra ID P1 or P2 licence' : ''}`,
        'since_too_old',
        new Date(heldSince).toISOString(),
      );
  }

  /**
   * Writes through Graph (restore/entra-restorer.ts) with the same token: the app registration
   * needs the write permissions of the types restored (entraRestorePermissions), checked against
   * the token's `roles` before the restore plans.
   */
  restorer(options: RestoreWriteOptions): ProviderRestorer {
    return new EntraRestorer(
      this.graph,
      { clientId: this.clientId },
      options,
      async (permissions) => {
        assertPermissionsGranted(permissions, grantedRoles(await this.tokens.accessToken()), 'restore');
      },
      this.replicationWaitMs,
    );
  }

  stats(): ConnectorStats {
    return this.runtime.stats();
  }

  async close(): Promise<void> {
    await this.runtime.close();
  }
}

/**
 * How the connector proves itself at the token endpoint: a client secret, or a client assertion
 * signed with the certificate's key (PS256, `x5t#S256`, aud the token endpoint: Microsoft identity
 * platform "certificate credentials").
 * @throws ProviderError `invalid_credentials` unless exactly one is given;
 *   `invalid_client_certificate` for a certificate that cannot sign
 */
function clientAuthentication(options: EntraConnectorOptions): ClientAuthentication {
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
