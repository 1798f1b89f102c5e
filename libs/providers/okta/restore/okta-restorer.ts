import { OKTA_VOLATILE_FIELDS } from '@libs/providers/okta/okta-volatile-fields.js';
import { DefinitionRestorer } from '@libs/providers/kit/definition-restorer.js';
import type {
  IdMap,
  RestoreSupport,
  RestoreWriteOptions,
  RestoreWriteResult,
} from '@libs/providers/provider-restore.js';
import type { ResourceRecord, ResourceType } from '@libs/records/resource-record.js';
import type { OktaApiClient } from '@libs/providers/okta/okta-api-client.js';
import { restoreDefinitions } from './definitions/index.js';
import { groupManagedBecause } from './definitions/directory.js';
import { referencedIds, rewriteRecord } from './okta-id-references.js';
import { OKTA_RESTORE_ORDER } from './okta-restore-order.js';
import { OKTA_FEATURE_GATES } from './okta-feature-gates.js';
import {
  idParts,
  omit,
  type RestoreDefinition,
  SERVER_OWNED,
  type WriteContext,
} from './restore-definition.js';

const OWN_INTEGRATION = "The connection's own API service integration: a restore never changes or removes it";

/**
 * Okta's ProviderRestorer: the restore definitions of each type (definitions/) behind the
 * provider-neutral interface (kit DefinitionRestorer), Okta's ids rewritten through the run's
 * IdMap, and two rules of its own: memberships of groups Okta manages are Okta's (never written),
 * and nothing a record of the connection's own API service integration names is changed or removed.
 */
export class OktaRestorer extends DefinitionRestorer<WriteContext> {
  readonly order: readonly ResourceType[] = OKTA_RESTORE_ORDER;
  /** Groups Okta manages (Everyone, APP_GROUP), learned by `prepare` and as group records pass. */
  private readonly managedGroupIds = new Set<string>();
  /** Types the org cannot hold (a feature it lacks), with why: learned by `prepare`. */
  private readonly unavailable = new Map<ResourceType, string>();

  /**
   * @param ownClientId the client id of the API service integration the connection calls with
   */
  constructor(
    private readonly api: OktaApiClient,
    private readonly ownClientId: string,
    private readonly options: RestoreWriteOptions,
  ) {
    super('Okta', restoreDefinitions(options), SERVER_OWNED, OKTA_VOLATILE_FIELDS, OKTA_RESTORE_ORDER);
  }

  /**
   * Learns, with one request per feature gate among `types` (okta-feature-gates.ts), which types
   * the org cannot hold for lack of a feature (`support` then says so); and which groups Okta
   * manages when memberships are among `types`, or users (created with their memberships), with
   * one request listing BUILT_IN and APP_GROUP groups, so their memberships are left alone even
   * when the `group` type itself is not restored.
   * @throws ProviderError when the org cannot be read
   */
  async prepare(types: readonly ResourceType[], signal?: AbortSignal): Promise<void> {
    this.unavailable.clear();
    for (const gate of OKTA_FEATURE_GATES)
      if (gate.types.some((type) => types.includes(type)) && !(await this.api.hasFeature(gate.probe, signal)))
        for (const type of gate.types) this.unavailable.set(type, gate.why);
    if (!types.includes('group_membership') && !types.includes('user')) return;
    const filter = 'type eq "BUILT_IN" or type eq "APP_GROUP"';
    for await (const page of this.api.pages({ template: '/api/v1/groups', query: { filter }, signal }))
      for (const group of page) if (typeof group.id === 'string') this.managedGroupIds.add(group.id);
  }

  /** As DefinitionRestorer's, but nothing of a type the org cannot hold (`prepare`), with why. */
  override support(type: ResourceType): RestoreSupport {
    const unavailable = this.unavailable.get(type);
    if (unavailable === undefined) return super.support(type);
    return { create: false, update: false, delete: false, notes: [unavailable], unavailable };
  }

  rewrite(record: ResourceRecord, ids: IdMap): ResourceRecord {
    return rewriteRecord(record, ids);
  }

  references(record: ResourceRecord): string[] {
    const own = new Set(idParts(record.id));
    return referencedIds(omit(record.data, ['_links', '_embedded'])).filter((id) => !own.has(id));
  }

  override live(record: ResourceRecord) {
    this.learn(record);
    return super.live(record);
  }

  override managedBecause(record: ResourceRecord): string | null {
    this.learn(record);
    if (record.type === 'group_membership' && this.managedGroupIds.has(idParts(record.id)[0]))
      return 'Okta manages the members of the Everyone group and of groups an app imports';
    return super.managedBecause(record);
  }

  /** As DefinitionRestorer's, without memberships of groups Okta manages among `together`. */
  protected override create(
    definition: RestoreDefinition,
    record: ResourceRecord,
    context: WriteContext,
    together: readonly string[],
  ): Promise<RestoreWriteResult> {
    const written = together.filter((id) => !this.managedGroupIds.has(idParts(id)[0]));
    return super.create(definition, record, context, written);
  }

  protected context(signal?: AbortSignal): WriteContext {
    return { api: this.api, options: this.options, signal };
  }

  protected protectedBecause(record: ResourceRecord): string | undefined {
    return this.isOwnIntegration(record) ? OWN_INTEGRATION : undefined;
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
