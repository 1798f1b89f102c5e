import type { ClientCredentialsTokenSource } from '@libs/providers/kit/client-credentials.js';
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
import { ProviderError } from '@libs/providers/provider-errors.js';
import type { ProviderRestorer, RestoreWriteOptions } from '@libs/providers/provider-restore.js';
import type { ResourceType } from '@libs/records/resource-record.js';

import { assertPermissionsGranted, grantedRoles } from './entra-permissions.js';
import { AUDIT_LOG_PERMISSION } from './entra-audit-log.js';
import {
  clientAuthentication,
  type EntraConnectorOptions,
  GLOBAL_GRAPH_HOST,
  GLOBAL_LOGIN_ORIGIN,
  GRAPH_DEFAULT_SCOPE,
  TENANT_ID,
  TOKEN_TEMPLATE,
  USER_AGENT,
} from './entra-connector-options.js';
import { DirectoryAuditReader } from './entra-directory-audit-reader.js';
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

export type { EntraConnectorOptions } from './entra-connector-options.js';

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
  private readonly audits: DirectoryAuditReader;
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
    this.audits = new DirectoryAuditReader(this.graph, this.tokens, options.clientId);
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
   * The directory audit's records since `since` (ISO 8601), Graph's `directoryAudit` objects,
   * newest first (DirectoryAuditReader.records).
   * @throws ProviderError `invalid_since`; ProviderAuthError naming AuditLog.Read.All
   */
  readDirectoryAudits(since: string, options: { signal?: AbortSignal } = {}): AsyncIterable<GraphObject> {
    return this.audits.records(since, options);
  }

  /** Days the tenant's directory audit reaches back: 7, or 30 with Entra ID P1 or P2. */
  auditLogRetentionDays(options: { signal?: AbortSignal } = {}): Promise<number> {
    return this.audits.retentionDays(options);
  }

  /**
   * Configuration changes the directory audit records since `since`, newest first
   * (DirectoryAuditReader.configurationChanges).
   * @throws ProviderError `invalid_since`; LogWindowExceededError `since_too_old`
   */
  configurationChangesSince(
    since: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<ConfigurationChange> {
    return this.audits.configurationChanges(since, options);
  }

  /**
   * Who changed which object between `since` and `until`, oldest first
   * (DirectoryAuditReader.changeAttribution).
   * @throws ProviderError `invalid_since`; LogWindowExceededError `since_too_old`;
   *   ProviderAuthError naming AuditLog.Read.All
   */
  readChangeAttribution(
    since: string,
    until: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<ChangeAttribution> {
    return this.audits.changeAttribution(since, until, options);
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
