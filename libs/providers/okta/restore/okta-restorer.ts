import { OKTA_VOLATILE_FIELDS } from '@libs/providers/okta/okta-volatile-fields.js';
import { contentHash } from '@libs/snapshot/content-hash.js';
import type {
  IdMap,
  LiveResource,
  ProviderRestorer,
  RestoreSupport,
  RestoreWrite,
  RestoreWriteOptions,
  RestoreWriteResult,
} from '@libs/providers/provider-restore.js';
import type { OktaResourceType, ResourceRecord, ResourceType } from '@libs/providers/resource-types.js';
import type { OktaApiClient, OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { restoreDefinitions } from './definitions/index.js';
import { groupManagedBecause } from './definitions/directory.js';
import { referencedIds, rewriteRecord } from './okta-id-references.js';
import { OKTA_RESTORE_ORDER } from './okta-restore-order.js';
import {
  idParts,
  omit,
  type RestoreDefinition,
  SERVER_OWNED,
  type WriteContext,
} from './restore-definition.js';
import { answerMayBeLost } from '@libs/providers/provider-errors.js';

/** Creations of one object at most when the answers to the earlier ones were lost: the five attempts the transport gives an idempotent request. */
const CREATE_ATTEMPTS = 5;

const NOT_WRITTEN =
  'A restore does not write this type: set it again in Okta after the restore if it changed';
const OWN_INTEGRATION = "The connection's own API service integration: a restore never changes or removes it";

/**
 * Okta's ProviderRestorer: the restore definitions of each type (definitions/) behind the
 * provider-neutral interface, Okta's ids rewritten through the run's IdMap, and two rules of its
 * own: memberships of groups Okta manages are Okta's (never written), and nothing a record of
 * the connection's own API service integration names is changed or removed.
 */
export class OktaRestorer implements ProviderRestorer {
  readonly order: readonly ResourceType[] = OKTA_RESTORE_ORDER;
  readonly guardedTypes: readonly ResourceType[];
  private readonly definitions: Partial<Record<OktaResourceType, RestoreDefinition>>;
  /** Groups Okta manages (Everyone, APP_GROUP), learned by `prepare` and as group records pass. */
  private readonly managedGroupIds = new Set<string>();

  /**
   * @param ownClientId the client id of the API service integration the connection calls with
   */
  constructor(
    private readonly api: OktaApiClient,
    private readonly ownClientId: string,
    private readonly options: RestoreWriteOptions,
  ) {
    this.definitions = restoreDefinitions(options);
    this.guardedTypes = OKTA_RESTORE_ORDER.filter((type) => this.definitions[type]?.guardDeletions);
  }

  /**
   * Learns which groups Okta manages when memberships are among `types`, or users (created with
   * their memberships), with one request listing BUILT_IN and APP_GROUP groups, so their
   * memberships are left alone even when the `group` type itself is not restored.
   */
  async prepare(types: readonly ResourceType[], signal?: AbortSignal): Promise<void> {
    if (!types.includes('group_membership') && !types.includes('user')) return;
    const filter = 'type eq "BUILT_IN" or type eq "APP_GROUP"';
    for await (const page of this.api.pages({ template: '/api/v1/groups', query: { filter }, signal }))
      for (const group of page) if (typeof group.id === 'string') this.managedGroupIds.add(group.id);
  }

  support(type: ResourceType): RestoreSupport {
    const definition = this.definition(type);
    if (!definition) return { create: false, update: false, delete: false, notes: [NOT_WRITTEN] };
    return {
      create: definition.create !== undefined,
      update: definition.update !== undefined,
      delete: definition.remove !== undefined,
      notes: definition.notes ?? [],
    };
  }

  fingerprint(record: ResourceRecord): string {
    const writable = this.definition(record.type)?.writable ?? defaultWritable;
    return contentHash(writable(record.data), OKTA_VOLATILE_FIELDS);
  }

  naturalKey(record: ResourceRecord): string | null {
    return this.definition(record.type)?.naturalKey?.(record) ?? null;
  }

  rewrite(record: ResourceRecord, ids: IdMap): ResourceRecord {
    return rewriteRecord(record, ids);
  }

  references(record: ResourceRecord): string[] {
    const own = new Set(idParts(record.id));
    return referencedIds(omit(record.data, ['_links', '_embedded'])).filter((id) => !own.has(id));
  }

  live(record: ResourceRecord): LiveResource {
    this.learn(record);
    const status = this.definition(record.type)?.status?.(record.data) ?? record.data.status;
    return {
      id: record.id,
      name: record.name,
      fingerprint: this.fingerprint(record),
      key: this.naturalKey(record),
      ...(typeof status === 'string' ? { status } : {}),
      ...(this.isOwnIntegration(record) ? { protectedBecause: OWN_INTEGRATION } : {}),
    };
  }

  managedBecause(record: ResourceRecord): string | null {
    this.learn(record);
    if (record.type === 'group_membership' && this.managedGroupIds.has(idParts(record.id)[0]))
      return 'Okta manages the members of the Everyone group and of groups an app imports';
    return this.definition(record.type)?.managedBecause?.(record.data) ?? null;
  }

  guardDeletions(
    type: ResourceType,
    deleting: readonly LiveResource[],
    remaining: readonly LiveResource[],
    going: ReadonlySet<string>,
  ): Map<string, string> {
    return this.definition(type)?.guardDeletions?.(deleting, remaining, going) ?? new Map();
  }

  createdWith(type: ResourceType): { type: ResourceType; component: number } | null {
    return this.definition(type)?.createdWith ?? null;
  }

  sequence(type: ResourceType): ((a: ResourceRecord, b: ResourceRecord) => number) | null {
    return this.definition(type)?.sequence ?? null;
  }

  /**
   * @throws Error when the type's definition cannot make this write (callers check `support`);
   *   ProviderRequestError / ProviderAuthError from Okta
   */
  async apply(write: RestoreWrite, signal?: AbortSignal): Promise<RestoreWriteResult> {
    const type = write.action === 'delete' ? write.type : write.record.type;
    const definition = this.definition(type);
    const context = { api: this.api, options: this.options, signal };
    switch (write.action) {
      case 'create': {
        if (!definition?.create) throw new Error(`Okta restores cannot create ${type}`);
        const together = write.with.filter((id) => !this.managedGroupIds.has(idParts(id)[0]));
        return this.create(definition, write.record, context, together);
      }
      case 'update': {
        if (!definition?.update) throw new Error(`Okta restores cannot update ${type}`);
        return { id: write.live.id, notes: await definition.update(write.record, write.live, context) };
      }
      case 'delete': {
        if (!definition?.remove) throw new Error(`Okta restores cannot delete ${type}`);
        await definition.remove(write.live, context);
        return { id: write.live.id, notes: [] };
      }
    }
  }

  /**
   * Creates the object; when Okta's answer is lost (a 5xx, a connection dropped or cut), looks for
   * it (`definition.find`) before creating it again, so a creation Okta carried out is not made
   * twice: a found object is brought to the record as an update would. At most CREATE_ATTEMPTS
   * creations; types without `find` are not created again.
   * @throws the last creation's error
   */
  private async create(
    definition: RestoreDefinition,
    record: ResourceRecord,
    context: WriteContext,
    together: readonly string[],
  ): Promise<RestoreWriteResult> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const created = await definition.create!(record, context, together);
        return { id: created.id, notes: created.notes ?? [] };
      } catch (error) {
        if (!answerMayBeLost(error) || !definition.find || attempt >= CREATE_ATTEMPTS) throw error;
        const found = await definition.find(record, context);
        if (!found) continue;
        const live = this.live(found);
        const notes =
          definition.update && live.fingerprint !== this.fingerprint(record)
            ? await definition.update(record, live, context)
            : [];
        return { id: found.id, notes };
      }
    }
  }

  private definition(type: ResourceType): RestoreDefinition | undefined {
    return this.definitions[type as OktaResourceType];
  }

  /** Remembers groups Okta manages as group records pass (backup or live). */
  private learn(record: ResourceRecord): void {
    if (record.type === 'group' && groupManagedBecause(record.data) !== null)
      this.managedGroupIds.add(record.id);
  }

  private isOwnIntegration(record: ResourceRecord): boolean {
    if (idParts(record.id).includes(this.ownClientId)) return true;
    const oauthClient = (record.data.credentials as { oauthClient?: { client_id?: unknown } } | undefined)
      ?.oauthClient;
    return record.type === 'app' && oauthClient?.client_id === this.ownClientId;
  }
}

function defaultWritable(data: OktaObject): OktaObject {
  return omit(data, SERVER_OWNED);
}
