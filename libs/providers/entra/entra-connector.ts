import type { Agent } from 'undici';
import { isAllowedHost } from '@libs/providers/kit/allowed-hosts.js';
import { certificateAssertionKey } from '@libs/providers/kit/certificate-credential.js';
import {
  type ClientAuthentication,
  ClientCredentialsTokenSource,
} from '@libs/providers/kit/client-credentials.js';
import { connectorAgent, CONNECTOR_DEFAULTS } from '@libs/providers/kit/connector-agent.js';
import { ConnectorStatsRecorder } from '@libs/providers/kit/connector-stats.js';
import { HttpTransport } from '@libs/providers/kit/http-transport.js';
import { inOrderConcurrent } from '@libs/providers/kit/in-order-concurrent.js';
import { ParentPasses } from '@libs/providers/kit/parent-passes.js';
import { RateLimitGovernor } from '@libs/providers/kit/rate-limit-governor.js';
import { retryAfterSignal } from '@libs/providers/kit/retry-after.js';
import type {
  CollectOptions,
  ConnectorStats,
  DeletedRecord,
  EncodedCollectOptions,
  EncodedResourcePart,
  ProviderConnector,
  ResourceCursors,
  ResourcePart,
} from '@libs/providers/provider-connector.js';
import {
  ProviderError,
  ProviderHostNotAllowedError,
  ProviderRequestError,
} from '@libs/providers/provider-errors.js';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord, ResourceType } from '@libs/providers/resource-types.js';

import { assertPermissionsGranted, grantedRoles } from './entra-permissions.js';
import { ENTRA_NOT_CAPTURED } from './entra-not-captured.js';
import {
  ENTRA_RESOURCE_TYPES,
  ENTRA_TYPE_DEFINITIONS,
  type EntraResourceType,
  entraBackupPermissions,
} from './entra-resource-catalog.js';
import { GraphApiClient, type GraphObject } from './graph-api-client.js';

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

const DEFAULTS = { userAgent: 'idp-backup-entra-connector/0.1', ...CONNECTOR_DEFAULTS };

/**
 * Backs up a Microsoft Entra ID tenant through Microsoft Graph v1.0 with an app registration's
 * client credentials (the identity platform's client credentials flow, with a client secret or a
 * certificate). Implements
 * ProviderConnector: `collect()` streams each type of ENTRA_RESOURCE_TYPES, every one listed in
 * full (delta queries are a later part of issue 30).
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
  private readonly agent: Agent;
  private readonly recorder = new ConnectorStatsRecorder();
  private readonly tokens: ClientCredentialsTokenSource;
  private readonly graph: GraphApiClient;
  private readonly maxConcurrency: number;

  constructor(options: EntraConnectorOptions) {
    const graphOrigin = httpsOrigin(options.graphUrl);
    const graphHost = new URL(graphOrigin).host;
    if (!isAllowedHost(graphHost, options.allowedHosts)) throw new ProviderHostNotAllowedError(graphHost);
    if (!TENANT_ID.test(options.tenantId))
      throw new ProviderError(
        'tenant_id must be the directory (tenant) id, a GUID, or one of its verified domains',
        'invalid_tenant_id',
      );
    const loginOrigin = graphHost === GLOBAL_GRAPH_HOST ? GLOBAL_LOGIN_ORIGIN : graphOrigin;
    const headroom = options.headroom ?? DEFAULTS.headroom;
    if (!(headroom >= 0 && headroom < 1))
      throw new ProviderError('headroom must be at least 0 and below 1', 'invalid_connector_options');
    const maxConcurrency = options.maxConcurrency ?? DEFAULTS.maxConcurrency;
    if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1)
      throw new ProviderError('maxConcurrency must be an integer of at least 1', 'invalid_connector_options');
    this.maxConcurrency = maxConcurrency;
    this.agent = connectorAgent({
      caCertPem: options.caCertPem,
      connections: maxConcurrency,
      timeoutMs: DEFAULTS.requestTimeoutMs,
    });
    const governor = new RateLimitGovernor({
      signals: [retryAfterSignal],
      maxConcurrency,
      headroom,
      maxAttempts: DEFAULTS.maxAttempts,
      baseDelayMs: DEFAULTS.retryBaseDelayMs,
      maxDelayMs: DEFAULTS.retryMaxDelayMs,
      resetJitterMs: DEFAULTS.resetJitterMs,
    });
    const transport = (origin: string): HttpTransport =>
      new HttpTransport({
        provider: 'Microsoft Graph',
        origin,
        allowedHosts: [...options.allowedHosts],
        dispatcher: this.agent,
        governor,
        stats: this.recorder,
        userAgent: options.userAgent ?? DEFAULTS.userAgent,
      });
    this.tokens = new ClientCredentialsTokenSource(transport(loginOrigin), {
      provider: 'Microsoft Entra ID',
      tokenUrl: new URL(`/${encodeURIComponent(options.tenantId)}/oauth2/v2.0/token`, loginOrigin),
      template: TOKEN_TEMPLATE,
      clientId: options.clientId,
      ...clientAuthentication(options),
      scopes: [GRAPH_DEFAULT_SCOPE],
      notBearerHint: 'Graph accepts only Bearer tokens',
    });
    this.graph = new GraphApiClient(transport(graphOrigin), this.tokens, graphOrigin);
  }

  /**
   * Fetches a token and checks its `roles` claim holds every application permission a backup
   * needs (entraBackupPermissions).
   * @throws ProviderAuthError for refused credentials or naming the missing permissions;
   *   ProviderError `provider_unreachable` on network or TLS failure
   */
  async verifyCredentials(): Promise<void> {
    const token = await this.tokens.accessToken();
    assertPermissionsGranted(entraBackupPermissions(), grantedRoles(token));
  }

  /**
   * Streams `types` (default all) in dependency order, one part per type, records as pages
   * arrive. Every part is complete and carries no cursor: no type is fetched as a delta yet (delta
   * links are a later part of issue 30), so an Entra snapshot never gives cursors to come back.
   * A type read under a parent (members, owners, credentials, assignments: `parent` in
   * ENTRA_TYPE_DEFINITIONS) is read one parent at a time, several at once (`maxConcurrency`), and
   * streamed in the parents' order, from the parent objects of the parent part's pass (or a
   * listing of the parent when that part is not collected).
   *
   * @throws ProviderError `unknown_resource_type`; `invalid_cursor` for any cursor (none is Entra's)
   */
  collect(options: EncodedCollectOptions): AsyncIterable<EncodedResourcePart>;
  collect(options?: CollectOptions): AsyncIterable<ResourcePart>;
  async *collect(options: CollectOptions = {}): AsyncIterable<ResourcePart> {
    const requested = new Set(options.types ?? ENTRA_RESOURCE_TYPES);
    for (const type of requested)
      if (!(ENTRA_RESOURCE_TYPES as readonly string[]).includes(type))
        throw new ProviderError(`Entra ID connectors do not collect "${type}"`, 'unknown_resource_type');
    refuseCursors(options.cursors);
    const parents = new Set(
      ENTRA_RESOURCE_TYPES.filter((type) => requested.has(type)).flatMap(
        (type) => ENTRA_TYPE_DEFINITIONS[type].parent ?? [],
      ),
    );
    const passes = new ParentPasses<EntraResourceType, GraphObject>(parents, async (type, signal) => {
      const objects: GraphObject[] = [];
      for await (const object of this.objects(type, {}, signal)) objects.push(object);
      return objects;
    });
    for (const type of ENTRA_RESOURCE_TYPES) {
      if (!requested.has(type)) continue;
      options.signal?.throwIfAborted();
      yield { type, records: this.part(type, passes, options.signal) };
    }
  }

  /**
   * Every type is listed in full, so no deletion needs reporting (ProviderConnector.deletedSince).
   * @throws ProviderError `invalid_cursor` for any cursor (none is Entra's)
   */
  deletedSince(cursors: ResourceCursors): AsyncIterable<DeletedRecord> {
    refuseCursors(cursors);
    return (async function* () {})();
  }

  /** Restoring Entra ID is a later part of issue 30. */
  restorer(): ProviderRestorer {
    throw new ProviderError('Restoring Entra ID is not available yet', 'restore_not_supported');
  }

  stats(): ConnectorStats {
    return this.recorder.snapshot();
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }

  private async *part(
    type: EntraResourceType,
    passes: ParentPasses<EntraResourceType, GraphObject>,
    signal?: AbortSignal,
  ): AsyncIterable<ResourceRecord> {
    const definition = ENTRA_TYPE_DEFINITIONS[type];
    if (definition.parent) {
      // Several parents' children in flight at once, streamed in the parents' order.
      const parents = await passes.refsOf(definition.parent, signal);
      yield* inOrderConcurrent(
        parents,
        (parent) => this.children(type, parent, signal),
        definition.embeddedIn ? 1 : this.maxConcurrency,
      );
      return;
    }
    const pass = passes.begin(type);
    try {
      for await (const object of this.objects(type, {}, signal)) {
        pass?.keep(object);
        yield entraRecord(type, object);
      }
      pass?.complete();
    } finally {
      pass?.stop(new ProviderError(`the ${type} part stopped before its end`, 'part_stopped'));
    }
  }

  /**
   * The objects of `type` as Graph returns them: each page of a collection, or the one object of a
   * singleton (none when it answers 404 and the type says that means absent).
   */
  private async *objects(
    type: EntraResourceType,
    params: Record<string, string>,
    signal?: AbortSignal,
  ): AsyncGenerator<GraphObject> {
    const definition = ENTRA_TYPE_DEFINITIONS[type];
    const read = {
      template: definition.path,
      params,
      select: definition.link ? ['id'] : definition.select,
      query: definition.query,
      signal,
    };
    if (definition.shape === 'singleton') {
      const object = await this.graph.object(read).catch((error: unknown) => {
        if (definition.absentOn404 && error instanceof ProviderRequestError && error.status === 404)
          return undefined;
        throw error;
      });
      if (object) yield object;
      return;
    }
    for await (const page of this.graph.pages({ ...read, paged: definition.top === true })) yield* page;
  }

  /** The records of `type` under one parent object (ENTRA_TYPE_DEFINITIONS `parent`). */
  private async *children(
    type: EntraResourceType,
    parent: GraphObject,
    signal?: AbortSignal,
  ): AsyncGenerator<ResourceRecord> {
    const definition = ENTRA_TYPE_DEFINITIONS[type];
    if (definition.embeddedIn) {
      const embedded = parent[definition.embeddedIn];
      for (const object of Array.isArray(embedded) ? (embedded as GraphObject[]) : [])
        yield entraRecord(type, object);
      return;
    }
    const parentId = String(parent.id);
    for await (const object of this.objects(type, { id: parentId }, signal))
      yield entraChildRecord(type, parentId, object);
  }
}

/** Per parent type, the members of its answer that embedded child types keep (`embeddedIn`). */
const EMBEDDED_MEMBERS = new Map<EntraResourceType, string[]>();
for (const type of ENTRA_RESOURCE_TYPES) {
  const { parent, embeddedIn } = ENTRA_TYPE_DEFINITIONS[type];
  if (parent && embeddedIn)
    EMBEDDED_MEMBERS.set(parent, [...(EMBEDDED_MEMBERS.get(parent) ?? []), embeddedIn]);
}

/**
 * A top-level object as a record: its id (ENTRA_TYPE_DEFINITIONS `id`, else Graph's), its name,
 * and Graph's JSON less the members an embedded child type keeps (`embeddedIn`).
 */
function entraRecord(type: EntraResourceType, object: GraphObject): ResourceRecord {
  const definition = ENTRA_TYPE_DEFINITIONS[type];
  let data = object;
  const embedded = EMBEDDED_MEMBERS.get(type);
  if (embedded) {
    data = { ...object };
    for (const member of embedded) delete data[member];
  }
  return {
    type,
    id: String((definition.id ?? ((o: GraphObject) => o.id))(object)),
    name: (definition.name(object) as string | null | undefined) ?? null,
    data,
  };
}

/**
 * An object read under a parent as a record `<parentId>:<id>`: a link (members, owners) as
 * `{ <parentKey>, <key>Id, <key>Type }` with the type from its `@odata.type`; any other child as
 * Graph returns it.
 */
function entraChildRecord(type: EntraResourceType, parentId: string, object: GraphObject): ResourceRecord {
  const definition = ENTRA_TYPE_DEFINITIONS[type];
  const childId = String(object.id);
  const { link } = definition;
  return {
    type,
    id: `${parentId}:${childId}`,
    name: link ? null : ((definition.name(object) as string | null | undefined) ?? null),
    data: link
      ? {
          [link.parentKey]: parentId,
          [`${link.key}Id`]: childId,
          [`${link.key}Type`]: String(object['@odata.type'] ?? '').replace('#microsoft.graph.', ''),
        }
      : object,
  };
}

/**
 * Entra connectors make no cursors yet (every type listed in full), so any cursor handed back is
 * another provider's or a corrupted one.
 * @throws ProviderError `invalid_cursor`
 */
function refuseCursors(cursors: ResourceCursors | undefined): void {
  if (cursors && Object.keys(cursors).length > 0)
    throw new ProviderError(
      'Not a cursor of an Entra ID collection (it lists every type in full)',
      'invalid_cursor',
    );
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

/**
 * The origin of `url`, which must be `https://host[:port]` with at most a trailing `/`.
 * @throws ProviderError `invalid_org_url`
 */
function httpsOrigin(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    parsed = new URL('about:blank');
  }
  if (parsed.protocol !== 'https:' || parsed.pathname !== '/' || /[?#@]/.test(url))
    throw new ProviderError(
      'The Graph URL must be an https origin such as https://graph.microsoft.com',
      'invalid_org_url',
    );
  return parsed.origin;
}
