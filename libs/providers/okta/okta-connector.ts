import type { ProviderRestorer, RestoreWriteOptions } from '@libs/providers/provider-restore.js';
import type {
  ChangeAttribution,
  ConfigurationChange,
  CollectOptions,
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
import { type ResourceType } from '@libs/records/resource-record.js';
import { OKTA_RESOURCE_TYPES } from '@libs/providers/okta/okta-resource-types.js';
import type { ClientCredentialsTokenSource } from '@libs/providers/kit/client-credentials.js';
import { parentTypes, partsInOrder, typesInOrder } from '@libs/providers/kit/catalog-collector.js';
import { ConnectorRuntime, httpsOrigin } from '@libs/providers/kit/connector-runtime.js';
import { OktaApiClient } from './okta-api-client.js';
import { OktaCollector } from './okta-collector.js';
import { OktaRestorer } from './restore/okta-restorer.js';
import { deletionsFromLog } from './okta-deletions.js';
import { configurationChangesFromLog } from './okta-drift.js';
import { attributionFromLog } from './okta-attribution.js';
import { OKTA_NOT_CAPTURED } from './okta-not-captured.js';
import { parentOf } from './okta-catalog-types.js';
import { RESOURCE_DEFINITIONS } from './okta-resource-catalog.js';
import { encodeOktaPage } from './okta-page-worker.js';
import { OKTA_BACKUP_SCOPES } from './okta-scopes.js';
import { OKTA_RATE_LIMIT_SIGNALS } from './okta-rate-limit-signal.js';
import { oktaRateLimitBucket } from './okta-rate-limit-buckets.js';

export interface OktaConnectorOptions {
  /** The org's https origin, e.g. `https://acme.okta.com`: no path, query or credentials. */
  orgUrl: string;
  /** An Okta API service integration (client_credentials, client_secret_basic). */
  clientId: string;
  clientSecret: string;
  /** Host patterns the org may live on, e.g. `['*.okta.com', '*.oktapreview.com']` (see isAllowedHost). */
  allowedHosts: readonly string[];
  /** A PEM CA to trust besides Node's bundled roots (a private CA, the test simulator's). */
  caCertPem?: string;
  /** Scopes requested with each token; default: the read scopes a full backup needs (restores add `.manage` ones). */
  scopes?: readonly string[];
  userAgent?: string;
  /** Requests in flight at once to this org; default 4. */
  maxConcurrency?: number;
  /** Share of each rate-limit bucket left free for the org's own admins, 0 <= h < 1; default 0.2. */
  headroom?: number;
  /**
   * The least share of a bucket left free while the answers show no one else used it in the
   * current window, 0 <= share <= headroom; default 0: the reserve then shrinks with the window's
   * time left (RateLimitGovernor reserveWaitMs, docs/backups.md "Rate limits").
   */
  idleHeadroom?: number;
  /** Attempts per request on 429, 5xx and dropped connections, the first included; default 5. */
  maxAttempts?: number;
  /** First backoff step for 5xx and dropped connections, ms, doubling per attempt; default 500. */
  retryBaseDelayMs?: number;
  /** Longest wait for response headers, then for each body chunk, ms; default 60000. */
  requestTimeoutMs?: number;
}

const USER_AGENT = 'idp-backup-okta-connector/0.1';

/** Okta's org authorization server token endpoint (Okta "Implement OAuth for Okta"). */
const TOKEN_TEMPLATE = '/oauth2/v1/token';

/** Okta's rate-limit windows are a minute long (Okta "Rate limits": limits per minute). */
const OKTA_WINDOW_MS = 60_000;

/** Okta keeps System Log events for 90 days (System Log API: "retention"). */
const LOG_RETENTION_MS = 90 * 24 * 3600 * 1000;

/**
 * A cursor is this long before its collection began: it covers clock skew and the System Log's
 * delay, and fetching a change twice is harmless (ProviderConnector).
 */
const CURSOR_MARGIN_MS = 60_000;

/** The types Okta can list by change (their catalogue entry's `incremental`): the ones given a cursor. */
const INCREMENTAL_TYPES: ReadonlySet<string> = new Set(
  OKTA_RESOURCE_TYPES.filter((type) => 'incremental' in RESOURCE_DEFINITIONS[type]),
);

/**
 * Backs up an Okta org through the Management API with an API service integration's client
 * credentials (OAuth for Okta). Implements ProviderConnector: `collect()` streams every type of
 * OKTA_RESOURCE_TYPES page by page, in dependency order.
 *
 * Every request goes through the SSRF guard (https, allowed host, the org's own origin), the
 * rate-limit governor and the retry rules (see HttpTransport, RateLimitGovernor).
 *
 * @throws ProviderError `invalid_org_url` when `orgUrl` is not an https origin,
 *   `invalid_connector_options` for out-of-range numbers, ProviderHostNotAllowedError when the
 *   org's host is not allowed: all from the constructor, before any request.
 */
export class OktaConnector implements ProviderConnector {
  readonly resourceTypes: readonly ResourceType[] = OKTA_RESOURCE_TYPES;
  readonly notCaptured = OKTA_NOT_CAPTURED;
  private readonly runtime: ConnectorRuntime;
  private readonly tokens: ClientCredentialsTokenSource;
  private readonly api: OktaApiClient;
  private readonly clientId: string;

  constructor(options: OktaConnectorOptions) {
    this.clientId = options.clientId;
    const orgOrigin = httpsOrigin(
      options.orgUrl,
      'The org URL must be an https origin such as https://acme.okta.com, without path, query or credentials',
    );
    const { allowedHosts, caCertPem, maxConcurrency, maxAttempts } = options;
    const headroom = options.headroom;
    this.runtime = new ConnectorRuntime({
      provider: 'Okta',
      origins: [orgOrigin],
      allowedHosts,
      caCertPem,
      userAgent: options.userAgent ?? USER_AGENT,
      pacing: { signals: OKTA_RATE_LIMIT_SIGNALS, bucketOf: oktaRateLimitBucket, windowMs: OKTA_WINDOW_MS },
      maxConcurrency,
      headroom,
      idleHeadroom: options.idleHeadroom ?? 0,
      maxAttempts,
      retryBaseDelayMs: options.retryBaseDelayMs,
      requestTimeoutMs: options.requestTimeoutMs,
    });
    this.tokens = this.runtime.tokenSource(orgOrigin, {
      provider: 'Okta',
      tokenUrl: new URL(TOKEN_TEMPLATE, orgOrigin),
      template: TOKEN_TEMPLATE,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scopes: options.scopes ?? OKTA_BACKUP_SCOPES,
      notBearerHint: 'turn off "Require DPoP" for this API service integration',
    });
    this.api = new OktaApiClient(this.runtime.transport(orgOrigin), this.tokens, orgOrigin);
  }

  /**
   * Fetches a token with the configured scopes.
   *
   * @throws ProviderAuthError naming Okta's `error`/`error_description` (and the requested
   *   scopes for `invalid_scope`); ProviderError `provider_unreachable` on network or TLS failure.
   */
  async verifyCredentials(): Promise<void> {
    await this.tokens.accessToken();
  }

  /**
   * Streams `types` (default all) in dependency order, one part per type, each part's records
   * as pages arrive; with a type's cursor (an ISO 8601 instant) the changes since it, for `user`,
   * `group` and `group_membership`; with `encodeWithout`, ENCODABLE_TYPES as EncodedRecords.
   * How, and why: libs/providers/okta/README.md ("Collection", "Cursors and deltas").
   *
   * @throws ProviderError `unknown_resource_type` for a type Okta connectors do not collect,
   *   `invalid_cursor` for a cursor that is not an ISO 8601 instant in the past.
   */
  collect(options: EncodedCollectOptions): AsyncIterable<EncodedResourcePart>;
  collect(options?: CollectOptions): AsyncIterable<ResourcePart>;
  async *collect(
    options: CollectOptions & Partial<EncodedCollectOptions> = {},
  ): AsyncIterable<EncodedResourcePart> {
    const types = typesInOrder(OKTA_RESOURCE_TYPES, options.types, 'Okta');
    const sinceOf = new Map(
      types.flatMap((type) => {
        const cursor = options.cursors?.[type];
        return cursor === undefined ? [] : [[type, widenedSince(parseCursor(cursor))] as const];
      }),
    );
    const nextCursor = new Date(Date.now() - CURSOR_MARGIN_MS).toISOString();
    const parents = parentTypes(types, (type) => parentOf(RESOURCE_DEFINITIONS[type]));
    const { encodeWithout } = options;
    const encoding =
      encodeWithout === undefined ? undefined : { encode: encodeOktaPage, volatileFields: encodeWithout };
    const collector = new OktaCollector(this.api, this.runtime.maxConcurrency, parents, encoding);
    yield* partsInOrder(
      types,
      async (type) => {
        const part = await collector.part(type, sinceOf.get(type), options.signal);
        return INCREMENTAL_TYPES.has(type) ? { ...part, cursor: nextCursor } : part;
      },
      options.signal,
    );
  }

  /**
   * Users, groups and group memberships deleted since the earliest of `cursors`, from the System
   * Log (`GET /api/v1/logs`, scope okta.logs.read): `user.lifecycle.delete.completed`,
   * `group.lifecycle.delete` and `group.user_membership.remove` events between it and now,
   * oldest first. Membership ids are `<groupId>:<userId>`. Nothing without a cursor.
   *
   * @throws ProviderError `invalid_cursor`, or `cursor_expired` beyond Okta's 90-day retention.
   */
  async *deletedSince(
    cursors: ResourceCursors,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<DeletedRecord> {
    const instants = Object.values(cursors).map(parseCursor);
    if (instants.length === 0) return;
    const earliest = new Date(Math.min(...instants)).toISOString();
    const [from, until] = this.#logWindow(earliest, 'cursor_expired');
    yield* deletionsFromLog(this.api, from, until, options.signal);
  }

  async *configurationChangesSince(
    since: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<ConfigurationChange> {
    const [from, until] = this.#logWindow(since, 'since_too_old');
    yield* configurationChangesFromLog(this.api, from, until, options.signal);
  }

  /**
   * Who changed which object between `since` and `until`, from the System Log (okta-attribution.ts).
   * @throws ProviderError `invalid_since`; `since_too_old` past the System Log's 90 days
   */
  async *readChangeAttribution(
    since: string,
    until: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<ChangeAttribution> {
    const [from] = this.#logWindow(since, 'since_too_old');
    yield* attributionFromLog(this.api, this.clientId, from, until, options.signal);
  }

  /**
   * `[since, now]` as ISO 8601.
   * @throws ProviderError `invalid_since`; `tooOld` past the System Log's 90 days
   */
  #logWindow(since: string, tooOld: 'since_too_old' | 'cursor_expired'): [string, string] {
    const sinceMs = parseSince(since);
    const now = Date.now();
    if (now - sinceMs > LOG_RETENTION_MS)
      throw new LogWindowExceededError(
        `${since} is older than the 90 days Okta keeps its System Log`,
        tooOld,
        new Date(now - LOG_RETENTION_MS).toISOString(),
      );
    return [new Date(sinceMs).toISOString(), new Date(now).toISOString()];
  }

  /** Writes through the Management API (restore/okta-restorer.ts); needs the `.manage` scopes. */
  restorer(options: RestoreWriteOptions): ProviderRestorer {
    return new OktaRestorer(this.api, this.clientId, options);
  }

  stats(): ConnectorStats {
    return this.runtime.stats();
  }

  /** Destroys the connection pool, aborting requests still in flight. */
  async close(): Promise<void> {
    await this.runtime.close();
  }
}

/** Epoch ms of an Okta cursor (an instant it made). @throws ProviderError `invalid_cursor` */
function parseCursor(cursor: string): number {
  try {
    return parseSince(cursor);
  } catch {
    throw new ProviderError(
      'Not a cursor of an Okta collection (an ISO 8601 instant in the past)',
      'invalid_cursor',
    );
  }
}

/** One second before `sinceMs`, as Okta writes timestamps (`2025-06-01T11:59:59.000Z`). */
function widenedSince(sinceMs: number): string {
  return new Date(sinceMs - 1000).toISOString();
}
