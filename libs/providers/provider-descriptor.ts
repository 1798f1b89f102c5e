import type { Check } from '@libs/compliance/compliance-types.js';
import type { Operation } from 'fast-json-patch';
import type { ChangePart } from '@libs/diff/change-facts.js';
import type { SeverityRule } from '@libs/diff/severity-rule.js';

import type { ProviderConnector } from './provider-connector.js';
import type { ProviderKind } from './provider-kind.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { RestorePackage, RestorePackageInput } from './restore-package.js';
import type { RestoreOption } from './provider-restore.js';

/** The operator's outbound policy and the tenant a connector is built for. */
export interface ConnectOptions {
  /** the tenant's https origin, e.g. `https://acme.okta.com` */
  orgUrl: string;
  /** the connection's credentials, as the descriptor's `credentials` fields name them */
  credentials: Readonly<Record<string, string>>;
  /**
   * Host patterns the service may call besides the provider's `cloudHosts`
   * (PROVIDER_ALLOWED_HOSTS: a simulator, a custom domain): the SSRF guard's list is both.
   */
  extraAllowedHosts: readonly string[];
  /** a PEM CA to trust besides Node's bundled roots */
  caCertPem?: string;
  userAgent: string;
  /** share of each rate-limit bucket left free for the tenant's own admins, 0 <= h < 1 */
  headroom: number;
  /**
   * the least share of a bucket left free while no one else is seen using it in its window,
   * 0 <= share <= headroom (RateLimitGovernor `idleHeadroom`); the provider's default when absent
   */
  idleHeadroom?: number;
  /**
   * how long a restore's write waits for the provider to replicate an object the restore just
   * created, seconds (0: no wait); the provider's default when absent
   */
  replicationWaitSeconds?: number;
  /**
   * the interval the connector keeps between requests to Graph's conditional access paths, ms
   * (Graph allows 1 a second); the provider's default when absent
   */
  conditionalAccessIntervalMs?: number;
  /** the types a restore will write: the connector then also asks for their write scopes */
  restoreTypes?: readonly string[];
}

/** One credential field of a connection: what the create and update bodies take for it. */
export interface CredentialField {
  /** the request body's name, e.g. `client_secret` */
  name: string;
  /** a secret is stored only encrypted and never returned (write-only); the others may be shown */
  secret: boolean;
  /** what the field holds, for people: the OpenAPI description, after the provider's label */
  description: string;
  /** the longest value the bodies accept, in characters (at least 1) */
  maxLength: number;
  /** an example value for the OpenAPI document */
  example?: string;
  /** the OpenAPI `format` of the value (`uuid`, `uri`), when it has one */
  format?: string;
  /**
   * Set at creation only: the update body does not take it (Entra ID's `tenant_id`: a connection
   * stays with its tenant; spec "Connections" lists what PATCH changes).
   */
  createOnly?: boolean;
  /**
   * Fields with the same `oneOf` are alternatives (Entra ID: `client_secret` or
   * `client_certificate`): a connection holds exactly one of them, and an update giving one drops
   * the others. Without it, the field is required.
   */
  oneOf?: string;
}

/**
 * Everything the service knows of one kind of provider, declared in its folder
 * (`libs/providers/<kind>`) and read through the registry (`registry.ts`): the service's own
 * code names no provider. Cheap to import: `connect` loads the connector (and its HTTP client)
 * on its first call.
 */
export interface ProviderDescriptor {
  kind: ProviderKind;
  /** the product's name, for people: `Okta` */
  label: string;
  /**
   * The connection's `org_url` when the create body names none (Entra ID: Microsoft Graph's
   * origin); absent, the body must name it (Okta: the org's own URL).
   */
  defaultOrgUrl?: string;
  /**
   * The connection's credentials, each required at creation unless one of alternatives (spec
   * "Connections": `client_id`, `client_secret` for Okta; `tenant_id` besides for Entra ID, whose
   * `client_secret` may be a `client_certificate` instead)
   */
  credentials: readonly CredentialField[];
  /** the provider's own cloud hosts (`host` or `*.domain`), always allowed by the SSRF guard */
  cloudHosts: readonly string[];
  /** every type the connector collects, in dependency order (parents first: a restore's order) */
  resourceTypes: readonly string[];
  /** the categories `include` accepts (spec "Resource categories"), together covering every type once */
  categories: Readonly<Record<string, readonly string[]>>;
  /** members left out of content hashes: they change without the configuration changing */
  volatileFields: readonly string[];
  /**
   * Fields, at any depth, the provider sets itself on an object (its id, creation and update stamps),
   * volatile ones included: an object a restore re-creates has new values of these, so a diff
   * pairs it with the object it replaces comparing all but these (docs/diff.md "Re-created
   * objects"), as the restore fidelity harness does. Absent: `volatileFields` and `id`.
   */
  serverOwnedFields?: readonly string[];
  /** the severity table of a diff, most specific first, ending with a catch-all */
  severityRules: readonly SeverityRule[];
  /**
   * Whether its connector reads who changed what from the provider's audit log
   * (`ProviderConnector.readChangeAttribution`); absent, diffs of its backups say
   * `attribution: 'not_available'`, with the reason in `changeAttributionUnavailable`.
   */
  attributesChanges?: boolean;
  /** Why a provider without `attributesChanges` cannot attribute changes (docs/diff.md). */
  changeAttributionUnavailable?: string;
  /**
   * The kind whose types `includeWorkflows` adds to this kind's backups (spec "Backups": the
   * primary kind only; Okta: `okta_workflows`), read from the team's connection of that kind to the
   * same org into the same snapshot. Its volatile fields must be among this kind's, so the
   * snapshot hashes its records as the included kind does.
   */
  workflowsKind?: ProviderKind;
  /**
   * The named parts a modified record's patch touches (Workflows: a flow's cards), for a diff to
   * report change by part; absent when the provider's records have none.
   */
  changeParts?(
    type: string,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
    patch: readonly Operation[],
  ): ChangePart[];
  /**
   * The records, by type, of an export file made by hand in the provider's own console (Okta
   * Workflows: a `.folder` or `.flow`), for a backup from an upload; absent when the provider has
   * no such file.
   * @throws ProviderError naming what makes the file not such an export
   */
  recordsOfUpload?(bytes: Uint8Array): Record<string, ResourceRecord[]>;
  /**
   * For a provider that cannot be written through an API: what a restore hands back instead of
   * writing (Okta Workflows: a re-import package), built from the backup's records. A provider
   * with it restores no other way, and previews from the backup alone.
   */
  restorePackage?(input: RestorePackageInput): RestorePackage;
  /**
   * The provider's audit log records every configuration change (its connector's
   * `configurationChangesSince`), so an incremental backup with no change logged since its base
   * records the base's snapshot instead of fetching again (Okta Workflows: exports are capped).
   */
  skipsUnchanged?: boolean;
  /** the switches of this provider's restores (Entra ID: `enforce`); absent, it has none */
  restoreOptions?: readonly RestoreOption[];
  /** types whose records limit their parent's reach, and the parent type (a severity fact) */
  scopingParents: Readonly<Record<string, string>>;
  /** per type, what a backup cannot hold (fields the API never returns, secrets stripped) */
  notCaptured: Readonly<Record<string, readonly string[]>>;
  /**
   * What the tenant's integration must be granted (OAuth scopes, API permissions): to back up, and
   * with `restoreTypes`, also to restore those types.
   */
  grants(restoreTypes?: readonly string[]): string[];
  /** the compliance checks written for this provider (libs/providers/<kind>/compliance) */
  complianceChecks: readonly Check[];
  /**
   * A connector for one tenant.
   * @throws ProviderError (`invalid_org_url`) or ProviderHostNotAllowedError before any request is made
   */
  connect(options: ConnectOptions): Promise<ProviderConnector>;
}
