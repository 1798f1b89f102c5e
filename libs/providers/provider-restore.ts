import type { ResourceRecord, ResourceType } from '@libs/records/resource-record.js';

/**
 * Ids of objects a restore re-created: backup object id -> the id the provider gave the new
 * object. Object ids, not record ids: a membership `<groupId>:<userId>` of a re-created group is
 * found by mapping its components.
 */
export type IdMap = ReadonlyMap<string, string>;

/** What a restore may do with one resource type of a provider (the preview's runbook says so too). */
export interface RestoreSupport {
  /** the provider creates objects of this type through its API */
  create: boolean;
  /** ... changes them */
  update: boolean;
  /** ... deletes them (a restore with `prune`) */
  delete: boolean;
  /**
   * What comes back differently from the backup, or why the type is not written at all: the
   * post-restore runbook ("users come back without passwords", "private keys are never returned").
   */
  notes: readonly string[];
  /**
   * Why the org written to cannot hold objects of this type at all, when it cannot: it lacks the
   * feature or licence they need (Okta's API Access Management for authorization servers). Then
   * nothing of the type is written (`create`, `update`, `delete` false) and each object is skipped
   * with this reason.
   */
  unavailable?: string;
}

/**
 * A live resource as a restore plan keeps it: enough to match, compare and address it, not the
 * whole object (a plan holds every live user of the type at once).
 */
export interface LiveResource {
  /** record id (libs/records/resource-record.ts) */
  id: string;
  name: string | null;
  /** `ProviderRestorer.fingerprint` of the live record */
  fingerprint: string;
  /** `ProviderRestorer.naturalKey` of the live record */
  key: string | null;
  /** the provider's lifecycle status, when the type has one */
  status?: string;
  /** why a restore must never change or remove it (lockout guard), when it must not */
  protectedBecause?: string;
}

/** One write of a restore, as the provider receives it. */
export type RestoreWrite =
  | {
      action: 'create';
      /** the backup's record, its references and parent ids rewritten to live ids */
      record: ResourceRecord;
      /**
       * Record ids of `ProviderRestorer.createdWith(type).type` that the provider makes in the
       * same request (a user's group memberships `<groupId>:<userId>`), rewritten; empty when none.
       */
      with: readonly string[];
    }
  | { action: 'update'; record: ResourceRecord; live: LiveResource }
  | { action: 'delete'; type: ResourceType; live: LiveResource };

/** What a write did. */
export interface RestoreWriteResult {
  /** record id of the resource after the write (a created object's new id) */
  id: string;
  /** what came back differently (a user left STAGED without activation) */
  notes: string[];
  /**
   * Other ids of the object a re-creation changed, backup id -> new id (a re-created Entra
   * application's `appId`): the run's id map takes them, so references to them are rewritten.
   */
  renamed?: Record<string, string>;
}

/** Settings of one restore that change how resources are written and compared (`connector.restorer`). */
export interface RestoreWriteOptions {
  /** send activation to re-created users (Okta: `activate=true`, an activation e-mail) */
  activateUsers: boolean;
  /**
   * The values of the provider's own restore options (its descriptor's `restoreOptions`), by name,
   * each as the restore asked or its default (Entra ID: `enforce`, docs/restore.md "Prune and the
   * lockout guard"); absent, every one is its default.
   */
  restoreOptions?: RestoreOptionValues;
}

/** A restore's values of the restore options its provider declares, by option name. */
export type RestoreOptionValues = Readonly<Record<string, boolean>>;

/**
 * A switch of one provider's restores (Entra ID: `enforce`), declared by its descriptor: the
 * restore body and the restore as the API returns it carry it as a flat boolean of that name
 * (spec "Restore"), the restore and its preview store it, and the restorer reads it from
 * `RestoreWriteOptions.restoreOptions`.
 */
export interface RestoreOption {
  /** the body's and the response's field name, e.g. `enforce` */
  name: string;
  /** what the switch does when true, for people: the OpenAPI description, after the provider's label */
  description: string;
  /** the value when the body does not give it */
  default: boolean;
}

/**
 * The writing side of a provider connector, used by restores (DESIGN section 6). The restore
 * engine (src/restore) plans type by type in `order`: it matches backup records to live ones by
 * record id, then by `naturalKey`, compares `fingerprint`s, and hands the writes to `apply`.
 *
 * Errors of `apply`: ProviderRequestError for what the provider refused (the item fails, the
 * restore goes on), ProviderAuthError when the credentials are refused (the restore stops).
 */
export interface ProviderRestorer {
  /** Types in the order a restore applies them: what a resource references comes first. */
  readonly order: readonly ResourceType[];
  /** Reads what the rules below need before a restore of `types` is planned (one call per restore). */
  prepare(types: readonly ResourceType[], signal?: AbortSignal): Promise<void>;
  support(type: ResourceType): RestoreSupport;
  /**
   * A digest of what a restore writes of the record (server-owned fields such as ids and
   * creation times left out): a backup record and a live one with equal fingerprints need no
   * write. Compare only after `rewrite`.
   */
  fingerprint(record: ResourceRecord): string;
  /**
   * What identifies the object apart from its id (a group's name, a user's login), so that an
   * object re-created by an earlier run or by an admin is matched, not created twice. Null when
   * nothing does.
   */
  naturalKey(record: ResourceRecord): string | null;
  /** The record with every object id the map holds replaced, in its id and its data. */
  rewrite(record: ResourceRecord, ids: IdMap): ResourceRecord;
  /** Object ids the record's data refers to (group ids in a rule's conditions...). */
  references(record: ResourceRecord): string[];
  /**
   * A live record as a plan keeps it: fingerprint, natural key, status, and why a restore must
   * never change or remove it (the connection's own API integration), if so.
   */
  live(record: ResourceRecord): LiveResource;
  /**
   * Types with rules in `guardDeletions` (Okta: admin role assignments). Deleting an object deletes
   * the records that hang off it, so before a prune deletes users or groups the engine reads these
   * types too and asks whether the records that would go with them may go.
   */
  readonly guardedTypes: readonly ResourceType[];
  /**
   * Deletions of a prune that must not happen because of what would remain (the org's last super
   * admin, an admin role's last target): record id -> why. The engine also keeps any resource a
   * protected record hangs off.
   * @param deleting live records the prune would delete
   * @param remaining live records of the type that stay, created ones included
   * @param going record ids of every type the prune means to delete, so that a record going with
   *   its parent (`<parentId>:<childId>`) is told from one whose parent stays
   */
  guardDeletions(
    type: ResourceType,
    deleting: readonly LiveResource[],
    remaining: readonly LiveResource[],
    going: ReadonlySet<string>,
  ): Map<string, string>;
  /**
   * Records of another type the provider creates together with a record of `type` in one request
   * (Okta: a user's group memberships through `groupIds`): `type` and which id component (of
   * `<parentId>:<childId>`) names the created record.
   */
  createdWith(type: ResourceType): { type: ResourceType; component: number } | null;
  /**
   * Order in which writes of the type must be applied one at a time (priorities of policies and
   * rules), or null when they may run concurrently.
   */
  sequence(type: ResourceType): ((a: ResourceRecord, b: ResourceRecord) => number) | null;
  /**
   * Why the provider manages a backed-up object itself, so a restore never creates or deletes it
   * (Okta's Everyone group, groups an app imports), or null.
   */
  managedBecause(record: ResourceRecord): string | null;
  /**
   * Whether creating the record brings the deleted object back from the provider's recycle bin
   * (Entra's deleted items, with its id) rather than making a new one; known after `prepare`.
   * Providers without one leave it out.
   */
  fromDeleted?(record: ResourceRecord): boolean;
  /**
   * What the provider is expected to refuse or change in writing the record (Entra: a PIM schedule
   * its role's management policy refuses), or null: the preview and the restore's notes name it
   * when the record is created or updated. Known after `prepare`; providers without such rules
   * leave it out.
   */
  caution?(record: ResourceRecord): string | null;
  /**
   * Waits, after the writes of `type` and before the next type is planned, for what the provider
   * needs to settle (Entra: Graph's replication of the objects created, before their children are
   * listed), and returns notes for the type's summary. Providers whose writes are read back
   * consistently leave it out.
   */
  settle?(type: ResourceType): Promise<string[]>;
  /**
   * Writes of one type a restore runs at once (default 8); the connector's governor still caps
   * the requests in flight and paces them by the provider's limits, so more only lets writes
   * that sleep (waiting for the provider to replicate an object) leave room to the others.
   */
  readonly writesInFlight?: number;
  /**
   * Why the org would refuse the record however it is written, created or updated over a
   * matched object (Entra: a conditional access policy needing a licence the tenant lacks), or
   * null: the planner leaves it alone, named (a skip, not a failure). Known after `prepare`;
   * providers without such rules leave it out.
   */
  refusedBecause?(record: ResourceRecord): string | null;
  /** Carries out one write. @throws see the interface's errors */
  apply(write: RestoreWrite, signal?: AbortSignal): Promise<RestoreWriteResult>;
}
