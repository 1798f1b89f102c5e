import type { LiveResource, RestoreWriteOptions } from '@libs/providers/provider-restore.js';
import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { ResourceRecord, ResourceType } from '@libs/providers/resource-types.js';
import type { OktaApiClient, OktaObject } from '@libs/providers/okta/okta-api-client.js';

/** What a definition's writes are given. */
export interface WriteContext {
  api: OktaApiClient;
  options: RestoreWriteOptions;
  signal?: AbortSignal;
}

/** What a creation did: the record id of the new object, and what came back differently. */
export interface Created {
  id: string;
  notes?: string[];
}

/**
 * How a restore writes one Okta type: the write-side twin of RESOURCE_DEFINITIONS
 * (okta-resource-catalog.ts), with endpoints from management.yaml and lifecycle rules from
 * Okta's docs and recorded traffic. A definition without `create`, `update` or `remove` cannot
 * do that; `notes` say what a restore of the type leaves for the admin to do (the runbook).
 *
 * Records arrive rewritten (okta-id-references.ts): their ids and the ids in their data name the
 * live objects, so a child's path parameters come from its record id, `<parentId>:<childId>`.
 */
export interface RestoreDefinition {
  /**
   * What a restore writes and compares, from the record's data; default: the data without the
   * fields Okta owns (`SERVER_OWNED`). Two records whose `writable` parts are equal need no write.
   */
  writable?(data: OktaObject): OktaObject;
  /** What names the object besides its id, unique within its type and parent (a group's name). */
  naturalKey?(record: ResourceRecord): string | null;
  /** Okta's lifecycle status of the object, when the type has one; default: `data.status`. */
  status?(data: OktaObject): string | undefined;
  /** Objects Okta creates and deletes itself (the Everyone group): never created or deleted. */
  managedBecause?(data: OktaObject): string | null;
  /**
   * Creates the object as the record describes it, lifecycle status included.
   * @param together record ids of `createdWith.type` to make in the same request
   * @throws ProviderRequestError when Okta refuses
   */
  create?(record: ResourceRecord, context: WriteContext, together: readonly string[]): Promise<Created>;
  /**
   * The live object the record would create, if it exists (by natural key or by its record id):
   * asked when Okta's answer to a creation was lost (answerMayBeLost), to tell whether Okta carried
   * it out before creating it again. Types without it are not created again after a lost answer.
   * @returns the live record, or null when there is none
   */
  find?(record: ResourceRecord, context: WriteContext): Promise<ResourceRecord | null>;
  /**
   * Changes the live object into the record, lifecycle status included (deactivating first where
   * Okta only changes inactive objects). @returns notes on what came back differently
   */
  update?(record: ResourceRecord, live: LiveResource, context: WriteContext): Promise<string[]>;
  /** Deletes the live object (deactivating first where Okta requires it); gone already is fine. */
  remove?(live: LiveResource, context: WriteContext): Promise<void>;
  /** Writes of the type go one at a time in this order (priorities). */
  sequence?(a: ResourceRecord, b: ResourceRecord): number;
  /** A child type Okta creates with this one in one request, and the id component naming this one. */
  createdWith?: { type: ResourceType; component: number };
  /** What a restore of the type cannot bring back as it was. */
  notes?: readonly string[];
  /**
   * Deletions a prune must not make because of what would remain (the last super admin, an admin
   * role's last target): record id -> why (ProviderRestorer.guardDeletions, `going` as there).
   */
  guardDeletions?(
    deleting: readonly LiveResource[],
    remaining: readonly LiveResource[],
    going: ReadonlySet<string>,
  ): Map<string, string>;
}

/** Fields Okta sets itself on every object: never written, never compared. */
export const SERVER_OWNED: readonly string[] = [
  'id',
  'created',
  'createdBy',
  'lastUpdated',
  'lastUpdatedBy',
  'lastMembershipUpdated',
  'statusChanged',
  'activated',
  'lastLogin',
  'passwordChanged',
  'transitioningToStatus',
  '_links',
  '_embedded',
];

/** `data` without the named top-level fields. */
export function omit(data: OktaObject, fields: readonly string[]): OktaObject {
  const kept: OktaObject = {};
  for (const [key, value] of Object.entries(data)) if (!fields.includes(key)) kept[key] = value;
  return kept;
}

/** `data` with only the named top-level fields that it has. */
export function pick(data: OktaObject, fields: readonly string[]): OktaObject {
  const kept: OktaObject = {};
  for (const key of fields) if (data[key] !== undefined) kept[key] = data[key];
  return kept;
}

/** The components of a record id: `<groupId>:<userId>` -> `[groupId, userId]`. */
export function idParts(recordId: string): string[] {
  return recordId.split(':');
}

/**
 * The id Okta gave a created object (`id` of its answer).
 * @throws ProviderRequestError when the answer has none
 */
export function createdId(answer: unknown, what: string): string {
  const id = (answer as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || id === '')
    throw new ProviderRequestError(`Okta created ${what} without answering its id`, 200);
  return id;
}
