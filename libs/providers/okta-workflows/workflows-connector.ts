import type { ClientCredentialsTokenSource } from '@libs/providers/kit/client-credentials.js';
import { ConnectorRuntime, httpsOrigin } from '@libs/providers/kit/connector-runtime.js';
import { OktaApiClient } from '@libs/providers/okta/okta-api-client.js';
import { LOG_PAGE_LIMIT, LOGS_TEMPLATE } from '@libs/providers/okta/okta-deletions.js';
import { OKTA_RATE_LIMIT_SIGNALS } from '@libs/providers/okta/okta-rate-limit-signal.js';
import type {
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
import { ProviderError, ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';

import { parseFlopack } from './flopack.js';
import { assertionKeyOf } from './signing-key.js';
import { WORKFLOWS_SCOPES } from './workflows-scopes.js';
import { WORKFLOWS_EVENT_PREFIX, workflowsChangeOf } from './workflows-changes.js';
import { workflowsOrigin } from './workflows-host.js';
import {
  recordsOfFlopack,
  tableRowsOf,
  WORKFLOWS_RESOURCE_TYPES,
  type WorkflowsResourceType,
} from './workflow-records.js';

const TOKEN_TEMPLATE = '/oauth2/v1/token';
/** Okta keeps its System Log 90 days; a minute less, so `since` is never refused as too old. */
const LOG_RETENTION_MS = 90 * 24 * 3600 * 1000 - 60_000;
const INVOKE_TEMPLATE = '/api/flo/{alias}/invoke';
/** An alias is the last segment of the flow's invoke URL (letters, digits, `-`, `_`). */
const FLOW_ALIAS = /^[A-Za-z0-9_-]{1,200}$/;

export interface WorkflowsConnectorOptions {
  /** the Okta org's https origin (`https://acme.okta.com`) */
  orgUrl: string;
  /** the API Services app's client id */
  clientId: string;
  /** its private key, PEM or private JWK (signing-key.ts) */
  privateKey: string;
  /** the alias of the exporter flow's API endpoint */
  flowAlias: string;
  allowedHosts: readonly string[];
  caCertPem?: string;
  userAgent?: string;
  headroom?: number;
}

/**
 * Backs up an Okta Workflows folder through the exporter flow the admin imported
 * (docs/okta-workflows.md): Workflows has no management API, only the invocation of API endpoint
 * flows (okta/terraform-provider-okta #981, #1374). A token of the org authorization server for
 * WORKFLOWS_SCOPES, the client authenticated with `private_key_jwt`, calls
 * `POST https://{org}.workflows.okta.com/api/flo/{alias}/invoke`; the flow answers
 * `{ folder, export: <flopack>, tables: [{ id, name, csv }] }`, which `collect` turns into records.
 * The System Log (same token) says whether anything changed since a backup.
 *
 * @throws ProviderError `invalid_org_url`, `invalid_flow_alias`, `invalid_private_key`,
 *   ProviderHostNotAllowedError: from the constructor, before any request
 */
export class WorkflowsConnector implements ProviderConnector {
  readonly resourceTypes = WORKFLOWS_RESOURCE_TYPES;
  readonly notCaptured: Readonly<Record<string, readonly string[]>>;
  private readonly runtime: ConnectorRuntime;
  private readonly tokens: ClientCredentialsTokenSource;
  private readonly org: OktaApiClient;
  private readonly workflows: OktaApiClient;
  private readonly flowAlias: string;
  private exported?: Promise<Record<WorkflowsResourceType, ResourceRecord[]>>;

  constructor(
    options: WorkflowsConnectorOptions & { notCaptured: Readonly<Record<string, readonly string[]>> },
  ) {
    this.notCaptured = options.notCaptured;
    const orgOrigin = httpsOrigin(
      options.orgUrl,
      'org_url must be the Okta org URL, such as https://acme.okta.com',
    );
    const flowsOrigin = workflowsOrigin(orgOrigin);
    if (!FLOW_ALIAS.test(options.flowAlias))
      throw new ProviderError(
        'flow_alias must be the alias of the exporter flow API endpoint',
        'invalid_flow_alias',
      );
    this.flowAlias = options.flowAlias;
    const assertionKey = assertionKeyOf(options.privateKey);
    this.runtime = new ConnectorRuntime({
      provider: 'Okta Workflows',
      origins: [orgOrigin, flowsOrigin],
      allowedHosts: options.allowedHosts,
      caCertPem: options.caCertPem,
      userAgent: options.userAgent ?? 'idp-backup-workflows-connector/0.1',
      pacing: { signals: OKTA_RATE_LIMIT_SIGNALS },
      // One flow invocation and the System Log's pages: two requests at a time are plenty.
      maxConcurrency: 2,
      headroom: options.headroom,
    });
    this.tokens = this.runtime.tokenSource(orgOrigin, {
      provider: 'Okta',
      tokenUrl: new URL(TOKEN_TEMPLATE, orgOrigin),
      template: TOKEN_TEMPLATE,
      clientId: options.clientId,
      assertionKey,
      scopes: WORKFLOWS_SCOPES,
      notBearerHint: 'turn off "Require DPoP" for this API Services app',
    });
    this.org = new OktaApiClient(this.runtime.transport(orgOrigin), this.tokens, orgOrigin);
    this.workflows =
      flowsOrigin === orgOrigin
        ? this.org
        : new OktaApiClient(this.runtime.transport(flowsOrigin), this.tokens, flowsOrigin);
  }

  /**
   * Fetches a token for WORKFLOWS_SCOPES with the private key (the flow itself runs at backup).
   * @throws ProviderAuthError naming Okta's answer (`invalid_scope` names the scopes not granted)
   */
  async verifyCredentials(): Promise<void> {
    await this.tokens.accessToken();
  }

  /**
   * Invokes the exporter flow once per connector and streams the types asked for, each complete.
   * @throws ProviderError `unknown_resource_type`, `invalid_cursor` for any cursor,
   *   `invalid_flopack` when the flow answers something other than an export;
   *   ProviderRequestError when the invocation fails (404: no flow has the alias, or it is off)
   */
  collect(options: EncodedCollectOptions): AsyncIterable<EncodedResourcePart>;
  collect(options?: CollectOptions): AsyncIterable<ResourcePart>;
  async *collect(options: CollectOptions = {}): AsyncIterable<ResourcePart> {
    const requested = new Set(options.types ?? WORKFLOWS_RESOURCE_TYPES);
    for (const type of requested)
      if (!(WORKFLOWS_RESOURCE_TYPES as readonly string[]).includes(type))
        throw new ProviderError(
          `Okta Workflows connectors do not collect "${type}"`,
          'unknown_resource_type',
        );
    refuseCursors(options.cursors);
    const records = await (this.exported ??= this.export(options.signal));
    for (const type of WORKFLOWS_RESOURCE_TYPES)
      if (requested.has(type)) yield { type, records: iterate(records[type]) };
  }

  /** Every type is exported in full: no deletion to report. @throws ProviderError `invalid_cursor` for any cursor */
  deletedSince(cursors: ResourceCursors): AsyncIterable<DeletedRecord> {
    refuseCursors(cursors);
    return (async function* () {})();
  }

  /**
   * Workflows changes the System Log recorded at or after `since`, oldest first: `workflows.user.*`
   * events (`eventType sw "workflows.user."`), read-only ones (exports, views) left out.
   * @throws ProviderError `invalid_since` for a `since` that is not an ISO 8601 instant
   */
  async *configurationChangesSince(
    since: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<ConfigurationChange> {
    if (Number.isNaN(Date.parse(since)))
      throw new ProviderError('since must be an ISO 8601 instant', 'invalid_since');
    const list = {
      template: LOGS_TEMPLATE,
      query: {
        since: new Date(since).toISOString(),
        until: new Date().toISOString(),
        sortOrder: 'ASCENDING',
        filter: `eventType sw "${WORKFLOWS_EVENT_PREFIX}"`,
        limit: LOG_PAGE_LIMIT,
      },
      signal: options.signal,
    };
    for await (const page of this.org.pages(list)) {
      if (page.length === 0) return;
      for (const event of page) {
        const change = workflowsChangeOf(event);
        if (change) yield change;
      }
    }
  }

  /** Workflows has no API to write flows: a restore is a re-import package (docs/okta-workflows.md). */
  restorer(): ProviderRestorer {
    throw new ProviderError(
      'Okta Workflows cannot be written through an API; restore makes a re-import package',
      'restore_not_supported',
    );
  }

  stats(): ConnectorStats {
    return this.runtime.stats();
  }

  async close(): Promise<void> {
    await this.runtime.close();
  }

  private async export(signal?: AbortSignal): Promise<Record<WorkflowsResourceType, ResourceRecord[]>> {
    const answer = (await this.workflows.write({
      method: 'POST',
      template: INVOKE_TEMPLATE,
      params: { alias: this.flowAlias },
      body: {},
      // The exporter flow only reads (docs/okta-workflows.md): an invocation lost to a 5xx or a
      // dropped connection is sent again.
      idempotent: true,
      signal,
    })) as { export?: unknown; tables?: unknown } | null;
    if (answer === null || typeof answer !== 'object')
      throw new ProviderRequestError('The exporter flow answered no JSON object', 200);
    const flopack = parseFlopack(
      typeof answer.export === 'string' ? JSON.parse(answer.export) : answer.export,
    );
    const records = recordsOfFlopack(flopack, tableRowsOf(answer.tables));
    const states = await this.flowStates(new Set(Object.keys(flopack.data.flos)), signal);
    for (const record of records.workflow)
      if (states.has(record.id)) record.data.active = states.get(record.id);
    return records;
  }

  /**
   * Whether each flow is on, as far as the System Log says: the last `workflows.user.flow.activate`
   * (on), `.deactivate` or `.create` (off: a new flow starts off) event naming the flow as a target
   * within the log's 90 days (an export holds no on/off state). Flows the log does not name are
   * left out.
   */
  private async flowStates(
    flowIds: ReadonlySet<string>,
    signal?: AbortSignal,
  ): Promise<Map<string, boolean>> {
    const states = new Map<string, boolean>();
    const list = {
      template: LOGS_TEMPLATE,
      query: {
        since: new Date(Date.now() - LOG_RETENTION_MS).toISOString(),
        until: new Date().toISOString(),
        sortOrder: 'ASCENDING',
        filter: ['create', 'activate', 'deactivate']
          .map((action) => `eventType eq "workflows.user.flow.${action}"`)
          .join(' or '),
        limit: LOG_PAGE_LIMIT,
      },
      signal,
    };
    for await (const page of this.org.pages(list)) {
      if (page.length === 0) break;
      for (const event of page) {
        const targets = Array.isArray(event.target) ? (event.target as Array<{ id?: unknown }>) : [];
        for (const target of targets)
          if (typeof target.id === 'string' && flowIds.has(target.id))
            states.set(target.id, event.eventType === 'workflows.user.flow.activate');
      }
    }
    return states;
  }
}

async function* iterate(records: readonly ResourceRecord[]): AsyncIterable<ResourceRecord> {
  yield* records;
}

function refuseCursors(cursors: ResourceCursors | undefined): void {
  if (cursors && Object.keys(cursors).length > 0)
    throw new ProviderError(
      'Not a cursor of an Okta Workflows collection (it exports in full)',
      'invalid_cursor',
    );
}
