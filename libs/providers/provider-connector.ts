import type { EncodedRecords } from '@libs/snapshot/encoded-records.js';

import type { ProviderRestorer, RestoreWriteOptions } from './provider-restore.js';
import type { ResourceRecord, ResourceType } from '@libs/records/resource-record.js';

/**
 * Where the next incremental collection of each type starts, by type: what each part's `cursor`
 * said, stored with the snapshot (encrypted, in its manifest) and handed back to `collect` and
 * `deletedSince` by the next incremental backup. Opaque outside the provider that made it (Okta:
 * an instant; Graph: a delta link), so a new provider needs no change to this contract.
 */
export type ResourceCursors = Readonly<Record<string, string>>;

/**
 * How the records of an incremental part relate to the same type's part in the base snapshot
 * (see `ProviderConnector.collect` with `cursors`). A part without `delta` is complete.
 *
 * - `changed`: the records created or changed since the type's cursor, each complete (the
 *   provider's whole object). A record of the base that is not in the part is unchanged, unless
 *   `deletedSince` reports it deleted.
 * - `children_of`: for exactly the parents in `parentIds`, the complete current list of their
 *   children (record ids `<parentId>:<childId>`, libs/records/resource-record.ts); children of every other
 *   parent are unchanged since the base. A parent listed with no record in the part has no
 *   children left.
 */
export type PartDelta = { kind: 'changed' } | { kind: 'children_of'; parentIds: string[] };

/**
 * The records of one resource type, streamed. Parts may be consumed at the same time, each by
 * one reader; a part that depends on another (children of a parent type) waits for it, so
 * every part yielded before it must be consumed too (in parallel, or first).
 */
export interface ResourcePart {
  type: ResourceType;
  records: AsyncIterable<ResourceRecord>;
  /** Absent: the part holds every record of the type. Set only for a type `collect` had a cursor of. */
  delta?: PartDelta;
  /**
   * Where the next incremental collection of the type starts (ResourceCursors); absent for a type
   * the provider always lists in full. Final once the part's records are consumed (a delta link
   * comes with the last page).
   */
  cursor?: string;
}

/**
 * A part collected for a snapshot (`collect` with `encodeWithout`): its records may come already
 * encoded, in batches, besides one by one.
 */
export interface EncodedResourcePart extends Omit<ResourcePart, 'records'> {
  records: AsyncIterable<ResourceRecord | EncodedRecords>;
}

/** A record the provider deleted, in the record-id convention of libs/records/resource-record.ts. */
export interface DeletedRecord {
  type: ResourceType;
  id: string;
}

/** One configuration change the provider's audit log records (drift since a backup). */
export interface ConfigurationChange {
  /** the provider's event type, e.g. Okta's `policy.lifecycle.update` */
  eventType: string;
  severity: 'critical' | 'high' | 'medium' | 'low';
  /** when it happened (ISO 8601) */
  published: string;
}

/**
 * Who made a change, as the provider's audit log names them (Okta: the System Log event's `actor`
 * and `client`; Graph: a directory audit's `initiatedBy.user` or `initiatedBy.app`).
 */
export interface ChangeActor {
  /** the provider's id of the actor (Okta: a user id, or the client id of a service app) */
  id: string;
  displayName: string;
  /** a person, an application (a service app, an API client) or the provider itself */
  type: 'user' | 'app' | 'system';
  /** the actor's sign-in name, when the log gives it (Okta `alternateId`: a login) */
  alternateId?: string;
  /** the client's IP address, when the log gives it */
  ipAddress?: string;
  /** the client's raw user agent, when the log gives it */
  userAgent?: string;
}

/**
 * One change to one object, attributed, as the provider's audit log records it (normalized):
 * what `readChangeAttribution` yields and what a backup keeps beside its snapshot, so that who
 * changed an object outlives the log's retention (Okta keeps 90 days).
 */
export interface ChangeAttribution {
  /** the log event's id (Okta `uuid`): with `targetId`, an entry is kept once */
  eventId: string;
  /**
   * The object changed, in the record-id convention (libs/records/resource-record.ts): an
   * object's id, or `<parentId>:<childId>` when the log names both (a membership)
   */
  targetId: string;
  /** the provider's name of the target's kind (Okta `UserGroup`, `PolicyEntity`) */
  targetType?: string;
  /**
   * Our resource type the change concerns, when the event says (a role grant targets the user
   * but changes `admin_role_assignment`); absent, it matches the object of any type with the id
   */
  resourceType?: ResourceType;
  /** when the provider recorded it (ISO 8601) */
  changedAt: string;
  actor: ChangeActor;
  /** the provider's event type, e.g. Okta's `policy.lifecycle.update` */
  eventType: string;
  /** the change was made with this connection's own credentials (a restore of this service) */
  byThisService: boolean;
}

export interface CollectOptions {
  /** Types to collect (default: all of `resourceTypes`), always streamed in dependency order. */
  types?: readonly ResourceType[];
  signal?: AbortSignal;
  /**
   * The base snapshot's cursors: a type with one is fetched as a delta since it
   * (`ResourcePart.delta`); every other type is listed in full.
   */
  cursors?: ResourceCursors;
}

/** Options of a collection that goes straight into a snapshot. */
export interface EncodedCollectOptions extends CollectOptions {
  /**
   * The snapshot's volatile fields: records may then be encoded as the snapshot stores them,
   * their content hashes made without these fields, away from the main thread (EncodedRecords).
   */
  encodeWithout: readonly string[];
}

/** Requests made to the provider during a connector's life, for progress and benchmarks. */
export interface ConnectorStats {
  requests: number;
  /** Keyed by `METHOD /path/template`, e.g. `GET /api/v1/groups/{groupId}/users`. */
  byEndpoint: Record<string, number>;
  status429: number;
  retries: number;
  /**
   * Throttled answers (429) by bucket (`METHOD /path/template`) and the seconds requests then
   * waited before being sent again.
   */
  throttled: Record<string, { responses: number; waitSeconds: number }>;
}

/**
 * What every identity-provider connector (libs/providers/<kind>) offers the backup job.
 *
 * Incremental backups (DESIGN section 5; docs/backups.md). With the cursors C the
 * base snapshot B's parts gave, a self-contained snapshot equal to a full one is B merged, type by
 * type, as:
 * 1. take B's records of the type;
 * 2. remove every record `deletedSince(C)` reports for the type, and cascade: a record whose id
 *    names a deleted parent (`<parentId>:...`, e.g. memberships `<groupId>:<userId>` of a deleted
 *    group or of a deleted user) is removed too, since providers do not report those one by one;
 * 3. apply the part: no `delta` -> the part replaces B's records entirely; `changed` -> each
 *    record of the part replaces B's record of the same id or is added; `children_of` -> B's
 *    records whose parent is in `parentIds` are dropped, then the part's records are added.
 * Deletions are applied before the part, so an object removed then re-added since the cursor (a
 * member removed and added back) is kept. A provider makes each cursor at or before the moment
 * its listing began (Okta: a minute before, for clock skew and the System Log's delay): fetching
 * a change twice is harmless, missing one is not.
 *
 * Errors: `ProviderAuthError` when the credentials are refused, `ProviderHostNotAllowedError`
 * when a URL is outside the allowed hosts (SSRF guard), `ProviderRequestError` for anything
 * else the provider answers that retries could not cure. All extend `ProviderError`.
 */
export interface ProviderConnector {
  /** Every type this connector collects, in dependency order (parents before children). */
  readonly resourceTypes: readonly ResourceType[];
  /**
   * What the provider never returns, per type (e.g. `user: ['credentials.password', ...]`):
   * dotted paths into the record's `data`, or `/api/...` paths of sub-resources the API never
   * lists. Fields the provider returns but a backup must not keep (secrets) are listed here too
   * and are removed from records before they are yielded. For the snapshot manifest.
   */
  readonly notCaptured: Readonly<Record<ResourceType, readonly string[]>>;
  /** Fetches a token with the scopes a backup needs; throws ProviderAuthError when refused. */
  verifyCredentials(): Promise<void>;
  /**
   * Streams the given types (default: all) in dependency order, one part per type. The next
   * part may be asked for before the previous one is consumed (see ResourcePart): types behind
   * different rate-limit buckets then progress together. Parts of types with no objects are
   * still yielded, with no records. A part's `delta` is final when the part is yielded. With
   * `encodeWithout` (for a snapshot writer), records may come encoded (EncodedRecords).
   *
   * @throws ProviderError `invalid_cursor` for a cursor this provider did not make (or that has
   *   expired); the backup then runs full.
   */
  collect(options: EncodedCollectOptions): AsyncIterable<EncodedResourcePart>;
  collect(options?: CollectOptions): AsyncIterable<ResourcePart>;
  /**
   * Records of the types with a cursor deleted since it (Okta: from its System Log), in the order
   * the provider reports them; a record may appear more than once. Deletions of fully listed
   * types need no report.
   *
   * @throws ProviderError `invalid_cursor` as `collect`; `cursor_expired` when the provider no
   *   longer keeps what happened since (Okta: its System Log's 90 days)
   */
  deletedSince(cursors: ResourceCursors, options?: { signal?: AbortSignal }): AsyncIterable<DeletedRecord>;
  /**
   * Configuration changes the provider's audit log records at or after `since` (ISO 8601), in the
   * log's order (Okta: oldest first; Entra ID: newest first, as Graph lists its directory audit),
   * activity (sign-ins) left out: how far the live configuration drifted from a backup.
   * Optional: a connector without an audit log has no drift to report.
   *
   * @throws ProviderError `invalid_since` when `since` is not an ISO 8601 instant in the past;
   *   LogWindowExceededError `since_too_old` when it is older than the provider keeps its log
   *   (Okta: 90 days; Entra ID: 7, or 30 with Entra ID P1 or P2), naming the oldest instant held
   */
  configurationChangesSince?(
    since: string,
    options?: { signal?: AbortSignal },
  ): AsyncIterable<ConfigurationChange>;
  /**
   * Who changed which object between `since` and `until` (ISO 8601), oldest first, from the
   * provider's audit log: configuration changes only (sign-ins left out), one entry per object an
   * event changed. Optional: a connector without an audit log cannot attribute changes, and
   * diffs then say so (`attribution: 'not_available'`).
   *
   * @throws ProviderError `invalid_since` as `configurationChangesSince`; `since_too_old` past the
   *   provider's retention
   */
  readChangeAttribution?(
    since: string,
    until: string,
    options?: { signal?: AbortSignal },
  ): AsyncIterable<ChangeAttribution>;
  /**
   * The writing side for a restore (provider-restore.ts), sharing this connector's credentials,
   * rate-limit governor and stats. Writes need the connector to have been made with the
   * provider's write scopes for the types restored.
   */
  restorer(options: RestoreWriteOptions): ProviderRestorer;
  stats(): ConnectorStats;
  /** Releases sockets. */
  close(): Promise<void>;
}
