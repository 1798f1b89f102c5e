import { ProviderAuthError } from '@libs/providers/provider-errors.js';
import { DefinitionRestorer } from '@libs/providers/kit/definition-restorer.js';
import { idParts } from '@libs/providers/kit/type-restore-definition.js';
import type {
  IdMap,
  RestoreWrite,
  RestoreWriteOptions,
  RestoreSupport,
  RestoreWriteResult,
} from '@libs/providers/provider-restore.js';
import type { ResourceRecord, ResourceType } from '@libs/records/resource-record.js';
import { ENTRA_VOLATILE_FIELDS } from '@libs/providers/entra/entra-not-captured.js';
import {
  ENTRA_RESOURCE_TYPES,
  ENTRA_TYPE_DEFINITIONS,
  type EntraResourceType,
} from '@libs/providers/entra/entra-resource-catalog.js';
import { entraRecord } from '@libs/providers/entra/entra-records.js';
import { entraParentOf } from '@libs/providers/entra/entra-catalog-types.js';
import type { GraphApiClient, GraphObject } from '@libs/providers/entra/graph-api-client.js';
import { entraRestoreDefinitions } from './definitions/index.js';
import { SYNCED_FROM_AD } from './definitions/directory.js';
import { ACTIVATION, grantOf } from './definitions/roles.js';
import { IdentifierUriCheck } from './identifier-uri-check.js';
import { PimPolicyCheck } from './pim-policy-check.js';
import { LicenceCheck } from './licence-check.js';
import { ApplicationIds } from './application-ids.js';
import { referencedIds, rewriteRecord } from './entra-id-references.js';
import {
  ENTRA_SERVER_OWNED,
  type EntraRestoreDefinition,
  type EntraWriteContext,
  type OwnApp,
} from './entra-restore-definition.js';
import { entraRestorePermissions } from './entra-restore-permissions.js';
import { ReplicationTracker } from './replication-tracker.js';
import { PrivilegedTargets } from './privileged-targets.js';
import { DEFAULT_REPLICATION_WAIT_MS } from '@libs/providers/entra/graph-replication.js';

/**
 * The types whose deleted objects wait 30 days in the directory's deleted items, by the OData
 * cast that lists them ("directory: deletedItems": users, Microsoft 365 groups and, since 2026, cloud security groups
 * (learn.microsoft.com/graph/api/group-delete; MC1183299), applications, service principals,
 * administrative units).
 */
const DELETED_ITEM_CASTS: Partial<Record<EntraResourceType, string>> = {
  user: 'microsoft.graph.user',
  group: 'microsoft.graph.group',
  application: 'microsoft.graph.application',
  service_principal: 'microsoft.graph.servicePrincipal',
  administrative_unit: 'microsoft.graph.administrativeUnit',
};

/**
 * Grants a principal holds, which a restore never changes for the connection's own service
 * principal (its Graph permissions, its directory roles): their restore looks that one up.
 */
const HELD_BY_PRINCIPALS: readonly EntraResourceType[] = [
  'app_role_assignment',
  'role_assignment',
  'role_eligibility_schedule',
  'role_assignment_schedule',
];

/** `types` with `role_management_policy_assignment` moved just before `role_management_policy`. */
function policyAssignmentsFirst(types: readonly ResourceType[]): ResourceType[] {
  const rest = types.filter((type) => type !== 'role_management_policy_assignment');
  const at = rest.indexOf('role_management_policy');
  return at < 0 ? [...types] : [...rest.slice(0, at), 'role_management_policy_assignment', ...rest.slice(at)];
}

/** The PIM schedule types, checked against their roles' management policies. */
const PIM_SCHEDULES: readonly EntraResourceType[] = ['role_eligibility_schedule', 'role_assignment_schedule'];

/** Types other types are read under (ENTRA_TYPE_DEFINITIONS `parent`): a restore settles after them. */
const LISTED_UNDER: ReadonlySet<ResourceType> = new Set(
  ENTRA_RESOURCE_TYPES.flatMap((type) => entraParentOf(ENTRA_TYPE_DEFINITIONS[type]) ?? []),
);

const FROM_DELETED = 'Restored from the deleted items with its id, so what refers to it still does';
const DYNAMIC_MEMBERS =
  'Entra computes the members of a dynamic group from its rule: a restore writes the rule, not the members';

/**
 * Microsoft Entra ID's ProviderRestorer (docs/restore.md "Microsoft Entra ID"): the restore definitions of
 * each type (definitions/) behind the provider-neutral interface (kit DefinitionRestorer), Graph's GUIDs
 * rewritten through the run's IdMap, and Entra's own rules:
 * - an object still in the deleted items is restored from there, keeping its id (and an
 *   application its `appId`), then changed into the backup's record; only one that is not is
 *   created anew;
 * - members of dynamic groups and of groups Active Directory syncs are Entra's and AD's, and
 *   objects a definition protects (the connection's own app, synced users) are never written;
 * - a conditional access policy whose conditions need a licence the tenant lacks (risk: Entra ID
 *   P2; service principals: Workload ID Premium) is left alone, named, as Graph would refuse it
 *   (licence-check.ts).
 */
export class EntraRestorer extends DefinitionRestorer<EntraWriteContext, EntraRestoreDefinition> {
  /**
   * The catalog's order, but a role management policy's assignments before the policies: they
   * name each policy's role, its natural key (PimPolicyCheck.policyKey). Neither is created, so
   * no write depends on the other.
   */
  readonly order: readonly ResourceType[] = policyAssignmentsFirst(ENTRA_RESOURCE_TYPES);
  /**
   * Writes in flight per type: a write naming an object Graph has not replicated yet sleeps
   * between its sends (graph-replication.ts) without a request in flight, and the connector's
   * governor caps requests in flight and keeps to Graph's write quota and resource units
   * (graph-rate-limits.ts), so the others go on meanwhile.
   */
  readonly writesInFlight = 32;
  /** Per type, the ids of its objects in the deleted items, read by `prepare`. */
  private readonly deleted = new Map<ResourceType, Set<string>>();
  /** Types whose write permissions were checked (`apply`). */
  private readonly verified = new Set<ResourceType>();
  /** Groups whose members a restore leaves alone -> why (dynamic, synced), learnt as groups pass. */
  private readonly managedGroups = new Map<string, string>();
  /** The role management policies PIM schedules are checked against (pim-policy-check.ts). */
  private readonly pim = new PimPolicyCheck();
  /** The identifier URIs Graph would refuse on applications (identifier-uri-check.ts). */
  private readonly uris = new IdentifierUriCheck();
  /** The tenant's licences, which conditional access conditions need (licence-check.ts). */
  private readonly licences = new LicenceCheck();
  /** The `appId` of each application seen, backup's and live (application-ids.ts). */
  private readonly appIds = new ApplicationIds();
  /** Grants (grantOf) of just-in-time activations, learnt as assignment schedules pass. */
  private readonly activations = new Set<string>();
  /** The wait for Graph's replication of what this restore creates. */
  private readonly replication: ReplicationTracker;
  /** Users holding administrator roles, and whether the app may write them (read by `prepare`). */
  private readonly privileged = new PrivilegedTargets();

  /**
   * @param verify asks Graph for a token and throws ProviderAuthError naming the application
   *   permissions among `permissions` it lacks
   * @param replicationWaitMs the longest one write waits for Graph to replicate objects the
   *   restore created (graph-replication.ts), ms; 0 waits for nothing
   */
  constructor(
    private readonly graph: GraphApiClient,
    private readonly own: OwnApp,
    private readonly options: RestoreWriteOptions,
    private readonly verify: (permissions: string[]) => Promise<void>,
    replicationWaitMs: number = DEFAULT_REPLICATION_WAIT_MS,
  ) {
    super(
      'Microsoft Entra ID',
      entraRestoreDefinitions(),
      ENTRA_SERVER_OWNED,
      ENTRA_VOLATILE_FIELDS,
      ENTRA_RESOURCE_TYPES,
    );
    this.replication = new ReplicationTracker(replicationWaitMs);
  }

  /**
   * Checks the app holds what a restore reads (a full backup's permissions), then reads the ids in
   * the deleted items of each of `types` that has some, and the groups whose members are not a
   * restore's to write when memberships are restored.
   * @throws ProviderAuthError naming missing permissions; as GraphApiClient.pages
   */
  async prepare(types: readonly ResourceType[], signal?: AbortSignal): Promise<void> {
    await this.verify(entraRestorePermissions([]));
    if (types.some((type) => HELD_BY_PRINCIPALS.includes(type as EntraResourceType) || type === 'user'))
      this.own.servicePrincipalId ??= await this.ownServicePrincipal(signal);
    if (types.includes('user')) await this.privileged.read(this.graph, this.own.servicePrincipalId, signal);
    for (const type of types) {
      const cast = DELETED_ITEM_CASTS[type as EntraResourceType];
      if (!cast) continue;
      const ids = new Set<string>();
      for await (const page of this.graph.pages({
        template: `/v1.0/directory/deletedItems/${cast}`,
        select: ['id'],
        paged: true,
        signal,
      }))
        for (const object of page) ids.add(String(object.id));
      this.deleted.set(type, ids);
    }
    if (types.some((type) => PIM_SCHEDULES.includes(type as EntraResourceType)))
      await this.pim.load(this.graph, signal).catch((error: unknown) => {
        // Without RoleManagementPolicy.Read.Directory the preview still plans, unchecked.
        if (!(error instanceof ProviderAuthError)) throw error;
      });
    if (types.includes('conditional_access_policy') || types.includes('user_license'))
      await this.licences.load(this.graph, signal);
    if (types.includes('application'))
      await this.uris.load(this.graph, signal).catch((error: unknown) => {
        if (!(error instanceof ProviderAuthError)) throw error;
      });
    if (types.includes('group_membership') || types.includes('group_owner'))
      for await (const page of this.graph.pages({
        template: '/v1.0/groups',
        select: ['id', 'groupTypes', 'onPremisesSyncEnabled'],
        paged: true,
        signal,
      }))
        for (const group of page) this.learn(group);
  }

  /**
   * The record with every id of `ids` replaced. A service principal also has its `appId` replaced
   * by that of the application its own application was matched with (into another tenant, an
   * application matched by its name keeps the target's `appId`, which its service principal names).
   */
  rewrite(record: ResourceRecord, ids: IdMap): ResourceRecord {
    if (record.type === 'application') this.appIds.learn(record);
    const rewritten = rewriteRecord(record, ids);
    if (record.type === 'role_management_policy_assignment') this.pim.learnRole(rewritten.data);
    return record.type === 'service_principal'
      ? rewriteRecord(rewritten, this.appIds.mapped(ids))
      : rewritten;
  }

  references(record: ResourceRecord): string[] {
    const own = new Set(idParts(record.id));
    return referencedIds(record.data).filter((id) => !own.has(id));
  }

  /**
   * As DefinitionRestorer's, after checking, at a type's first write, that the app holds the
   * type's write permissions (ENTRA_WRITE_PERMISSIONS), so that a restore missing one stops with
   * a message naming it rather than failing every item with Graph's 403.
   * @throws ProviderAuthError naming the missing permissions
   */
  override async apply(write: RestoreWrite, signal?: AbortSignal): Promise<RestoreWriteResult> {
    const type = write.action === 'delete' ? write.type : write.record.type;
    if (!this.verified.has(type)) {
      await this.verify(entraRestorePermissions([type]));
      this.verified.add(type);
    }
    // A created object is read back before the next type is planned (replication-tracker.ts).
    if (write.action === 'update' && type === 'user')
      write = { ...write, record: this.privileged.withoutUnchanged(write.record) };
    return this.replication.counted(async () => {
      const result = await super.apply(write, signal).catch((error: unknown) => {
        if (type !== 'user' || write.action === 'create') throw error;
        throw this.privileged.refusal(write.live.id, error);
      });
      if (write.action === 'create') this.replication.created(this.graph, type, result, signal);
      return result;
    });
  }

  /**
   * After the writes of a type other types are listed under (groups: members, owners;
   * applications: owners, credentials...), waits for Graph to replicate every object created so
   * far (replication-tracker.ts), since listing a new group's members answers 404 until then.
   * After other types the read backs go on while the restore does: writes that name a new object
   * wait for it on their own.
   */
  settle(type: ResourceType): Promise<string[]> {
    return LISTED_UNDER.has(type) ? this.replication.settle() : Promise.resolve([]);
  }

  /** As DefinitionRestorer's; a user's also names each privileged target (privileged-targets.ts). */
  override support(type: ResourceType): RestoreSupport {
    const support = super.support(type);
    return type === 'user' ? { ...support, notes: [...support.notes, ...this.privileged.notes()] } : support;
  }

  /**
   * What Graph would refuse of the record, named in the preview: a PIM schedule its role's
   * management policy refuses, an application's identifier URIs that are taken or restricted.
   */
  caution(record: ResourceRecord): string | null {
    return this.pim.caution(record) ?? this.uris.caution(record);
  }

  fromDeleted(record: ResourceRecord): boolean {
    return this.deleted.get(record.type)?.has(record.id) ?? false;
  }

  /** As DefinitionRestorer's; a role management policy's is its scope and role (PimPolicyCheck.policyKey). */
  override naturalKey(record: ResourceRecord): string | null {
    return record.type === 'role_management_policy' ? this.pim.policyKey(record) : super.naturalKey(record);
  }

  override live(record: ResourceRecord) {
    if (record.type === 'group') this.learn(record.data);
    if (record.type === 'role_management_policy_assignment') this.pim.learnRole(record.data);
    if (record.type === 'application') this.appIds.learn(record);
    return super.live(record);
  }

  override managedBecause(record: ResourceRecord): string | null {
    if (record.type === 'group') this.learn(record.data);
    this.pim.learn(record.type, record.data);
    const grant = record.type.startsWith('role_assignment') ? grantOf(record.data) : null;
    if (
      grant !== null &&
      record.type === 'role_assignment_schedule' &&
      record.data.assignmentType === 'Activated'
    )
      this.activations.add(grant);
    if (grant !== null && record.type === 'role_assignment' && this.activations.has(grant)) return ACTIVATION;
    if (record.type === 'group_membership') {
      const why = this.managedGroups.get(idParts(record.id)[0]);
      if (why) return why;
    }
    return super.managedBecause(record);
  }

  /**
   * A conditional access policy whose conditions need a licence the tenant lacks: Graph refuses
   * to create it and to update a policy into it (licence-check.ts), so it is left alone, named.
   */
  refusedBecause(record: ResourceRecord): string | null {
    return this.licences.missing(record);
  }

  /**
   * As DefinitionRestorer's; a user's licences are compared without the SKUs the tenant does not
   * subscribe to, which a restore leaves out (user_license), so they never look changed.
   */
  override fingerprint(record: ResourceRecord): string {
    return super.fingerprint(record.type === 'user_license' ? this.licences.subscribedOnly(record) : record);
  }

  /** A record still in the deleted items is restored from there, then brought to the record. */
  protected override async create(
    definition: EntraRestoreDefinition,
    record: ResourceRecord,
    context: EntraWriteContext,
    together: readonly string[],
  ): Promise<RestoreWriteResult> {
    if (!this.fromDeleted(record)) return super.create(definition, record, context, together);
    const restored = await this.graph.write({
      method: 'POST',
      template: '/v1.0/directory/deletedItems/{id}/restore',
      params: { id: record.id },
      signal: context.signal,
    });
    this.deleted.get(record.type)?.delete(record.id);
    const notes = [FROM_DELETED];
    if (restored && definition.update) {
      const live = this.live(entraRecord(record.type as EntraResourceType, restored));
      if (live.fingerprint !== this.fingerprint(record))
        notes.push(...(await definition.update(record, live, context)));
    }
    return { id: record.id, notes };
  }

  protected context(signal?: AbortSignal): EntraWriteContext {
    return {
      graph: this.replication.client(this.graph),
      options: this.options,
      signal,
      own: this.own,
      licences: this.licences,
    };
  }

  protected protectedBecause(record: ResourceRecord): string | undefined {
    return this.definition(record.type)?.protectedBecause?.(record.data, this.own) ?? undefined;
  }

  /**
   * The id of the connection's own service principal ("List servicePrincipals" with
   * `$filter=appId eq '<clientId>'`; matched here too), or undefined when the tenant has none.
   */
  private async ownServicePrincipal(signal?: AbortSignal): Promise<string | undefined> {
    const appId = this.own.clientId.toLowerCase();
    try {
      for await (const page of this.graph.pages({
        template: '/v1.0/servicePrincipals',
        query: { $filter: `appId eq '${appId}'` },
        select: ['id', 'appId'],
        signal,
      }))
        for (const sp of page) if (String(sp.appId).toLowerCase() === appId) return String(sp.id);
    } catch (error) {
      // Without Application.Read.All a preview still plans; the writes of these types need it
      // (ENTRA_WRITE_PERMISSIONS), so none is made unprotected.
      if (!(error instanceof ProviderAuthError)) throw error;
    }
    return undefined;
  }

  /** Remembers a group whose members are not a restore's to write. */
  private learn(group: GraphObject): void {
    const id = String(group.id ?? '');
    if (group.onPremisesSyncEnabled === true) this.managedGroups.set(id, SYNCED_FROM_AD);
    else if (Array.isArray(group.groupTypes) && group.groupTypes.includes('DynamicMembership'))
      this.managedGroups.set(id, DYNAMIC_MEMBERS);
  }
}
