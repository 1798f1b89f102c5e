import type { LiveResource } from '@libs/providers/provider-restore.js';
import type { ResourceRecord, ResourceType } from '@libs/records/resource-record.js';

/** A provider object as JSON (Okta's, Graph's). */
export type ProviderObject = Record<string, unknown>;

/** What a creation did: the record id of the new object, and what came back differently. */
export interface Created {
  id: string;
  notes?: string[];
  /**
   * Other ids of the object that a re-creation changed, backup id -> new id (a re-created Entra
   * application's `appId`): references to them are rewritten as to the object's id.
   */
  renamed?: Record<string, string>;
}

/**
 * How a restore writes one type of a provider, with the provider's write context `C` (its API
 * client, the restore's options, the abort signal). A definition without `create`, `update` or
 * `remove` cannot do that; `notes` say what a restore of the type leaves for the admin to do
 * (the post-restore runbook). Records arrive rewritten: their ids and the ids in their data
 * name the live objects, so a child's path parameters come from its record id,
 * `<parentId>:<childId>`. DefinitionRestorer (definition-restorer.ts) drives them.
 */
export interface TypeRestoreDefinition<C> {
  /**
   * What a restore writes and compares, from the record's data; default: the data without the
   * fields the provider owns. Two records whose `writable` parts are equal need no write.
   */
  writable?(data: ProviderObject): ProviderObject;
  /** What names the object besides its id, unique within its type and parent (a group's name). */
  naturalKey?(record: ResourceRecord): string | null;
  /** The provider's lifecycle status of the object, when the type has one; default: `data.status`. */
  status?(data: ProviderObject): string | undefined;
  /** Objects the provider creates and deletes itself (Okta's Everyone group): never created or deleted. */
  managedBecause?(data: ProviderObject): string | null;
  /**
   * Creates the object as the record describes it, lifecycle status included.
   * @param together record ids of `createdWith.type` to make in the same request
   * @throws ProviderRequestError when the provider refuses
   */
  create?(record: ResourceRecord, context: C, together: readonly string[]): Promise<Created>;
  /**
   * The live object the record would create, if it exists (by natural key or by its record id):
   * asked when the provider's answer to a creation was lost (answerMayBeLost), to tell whether it
   * carried it out before creating it again. Types without it are not created again after a lost
   * answer.
   * @returns the live record, or null when there is none
   */
  find?(record: ResourceRecord, context: C): Promise<ResourceRecord | null>;
  /**
   * Changes the live object into the record, lifecycle status included.
   * @returns notes on what came back differently
   */
  update?(record: ResourceRecord, live: LiveResource, context: C): Promise<string[]>;
  /** Deletes the live object; gone already is fine. */
  remove?(live: LiveResource, context: C): Promise<void>;
  /** Writes of the type go one at a time in this order (priorities). */
  sequence?(a: ResourceRecord, b: ResourceRecord): number;
  /** A child type the provider creates with this one in one request, and the id component naming this one. */
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

/** `data` without the named top-level fields. */
export function omit<T extends ProviderObject>(data: T, fields: readonly string[]): T {
  const kept: ProviderObject = {};
  for (const [key, value] of Object.entries(data)) if (!fields.includes(key)) kept[key] = value;
  return kept as T;
}

/** `data` with only the named top-level fields that it has. */
export function pick<T extends ProviderObject>(data: T, fields: readonly string[]): T {
  const kept: ProviderObject = {};
  for (const key of fields) if (data[key] !== undefined) kept[key] = data[key];
  return kept as T;
}

/** The components of a record id: `<groupId>:<userId>` -> `[groupId, userId]`. */
export function idParts(recordId: string): string[] {
  return recordId.split(':');
}
