import { contentHash } from '@libs/snapshot/content-hash.js';
import { idParts, omit, pick } from '@libs/providers/kit/type-restore-definition.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import type { GraphObject } from '@libs/providers/entra/graph-api-client.js';
import {
  directoryObjectReference,
  ENTRA_SERVER_OWNED,
  type EntraRestoreDefinition,
  type EntraWriteContext,
} from '@libs/providers/entra/restore/entra-restore-definition.js';
import { graphCollection, graphSingleton } from '@libs/providers/entra/restore/graph-collection.js';
import { keyed } from './natural-key.js';

const byDisplayName = (record: ResourceRecord): string | null =>
  typeof record.data.displayName === 'string' ? record.data.displayName : null;

/** The object keeps the id the backup gives it (a create body carries it: attribute sets, contexts). */
const withOwnId = (writable: GraphObject, record: ResourceRecord): GraphObject => ({
  id: record.data.id,
  ...writable,
});

/** A user's licences as a restore compares them: each SKU with its disabled plans, sorted. */
function licences(data: GraphObject): Array<{ skuId: string; disabledPlans: string[] }> {
  const assigned = Array.isArray(data.assignedLicenses) ? (data.assignedLicenses as GraphObject[]) : [];
  return assigned
    .map((licence) => ({
      skuId: String(licence.skuId),
      disabledPlans: (Array.isArray(licence.disabledPlans) ? licence.disabledPlans.map(String) : []).sort(),
    }))
    .sort((a, b) => a.skuId.localeCompare(b.skuId));
}

/**
 * A user's licences ("user: assignLicense", `POST /users/{id}/assignLicense`,
 * LicenseAssignment.ReadWrite.All): the backup's SKUs assigned with the plans they turned off
 * (assigning a SKU again replaces them), the user's others removed; `addLicenses` and
 * `removeLicenses` are both required. The user's live licences are read first ("Get user" with
 * `$select=assignedLicenses`).
 */
function userLicense(): EntraRestoreDefinition {
  const write = async (record: ResourceRecord, context: EntraWriteContext): Promise<string[]> => {
    // "assignLicense" refuses a SKU the tenant does not subscribe to (another tenant's): left out, named.
    const all = licences(record.data);
    const wanted = all.filter(({ skuId }) => context.licences?.subscribes(String(skuId)) !== false);
    const notes = all
      .filter((licence) => !wanted.includes(licence))
      .map(
        ({ skuId }) =>
          `Not restorable into this tenant: the licence of SKU ${String(skuId)}, which it does not subscribe to (subscribedSkus)`,
      );
    const live = await context.graph.object({
      template: '/v1.0/users/{id}',
      params: { id: record.id },
      select: ['id', 'assignedLicenses'],
      signal: context.signal,
    });
    const removeLicenses = licences(live)
      .map(({ skuId }) => skuId)
      .filter((skuId) => !wanted.some((licence) => licence.skuId === skuId));
    if (wanted.length === 0 && removeLicenses.length === 0) return notes;
    await context.graph.write({
      method: 'POST',
      template: '/v1.0/users/{id}/assignLicense',
      params: { id: record.id },
      body: { addLicenses: wanted, removeLicenses },
      retryNotFound: true,
      signal: context.signal,
    });
    return notes;
  };
  return {
    writable: (data) => ({ assignedLicenses: licences(data) }),
    create: (record, context) => write(record, context).then((notes) => ({ id: record.id, notes })),
    update: (record, _live, context) => write(record, context),
    notes: [
      "A user's licences are assigned again with the plans the backup had turned off; Graph refuses them for a user without a usage location or when the tenant has no licence of the SKU left",
      'Into a tenant that does not subscribe to a SKU, the licences of that SKU are left out, named in the notes',
    ],
  };
}

/** The directory extension attributes (`extension_<appId>_<name>`) of a user's record or object. */
const extensionValues = (data: GraphObject): GraphObject =>
  Object.fromEntries(
    Object.entries(data).filter(([name, value]) => name.startsWith('extension_') && value != null),
  );

/**
 * A user's directory extension values ("Update user", `PATCH /users/{id}`, User.ReadWrite.All,
 * the attributes as properties:
 * https://learn.microsoft.com/graph/extensibility-overview#directory-microsoft-entra-extensions):
 * the backup's values set, the user's others set to null (which removes them). The tenant's
 * user extensions come from "directoryObject: getAvailableExtensionProperties" (`POST
 * /directoryObjects/getAvailableExtensionProperties`), the user's live values from "Get user"
 * with their names in `$select` (Graph returns them only when named). An extension whose app was
 * deleted goes with it, and one re-created under a new appId has a new name: a value of a name the
 * tenant no longer has (Graph would refuse it, 400) is left out and named in the item's notes.
 * @returns notes naming the values left out
 */
function userExtensionValues(): EntraRestoreDefinition {
  const write = async (record: ResourceRecord, context: EntraWriteContext): Promise<string[]> => {
    const backedUp = extensionValues(record.data);
    const available = await context.graph.write({
      method: 'POST',
      template: '/v1.0/directoryObjects/getAvailableExtensionProperties',
      body: { isSyncedFromOnPremises: false },
      signal: context.signal,
    });
    const names = (Array.isArray(available?.value) ? (available.value as GraphObject[]) : [])
      .filter(({ targetObjects }) => Array.isArray(targetObjects) && targetObjects.includes('User'))
      .map(({ name }) => String(name));
    const wanted = Object.fromEntries(Object.entries(backedUp).filter(([name]) => names.includes(name)));
    const missing = Object.keys(backedUp).filter((name) => !names.includes(name));
    const notes = missing.map(
      (name) =>
        `${name} was not restored: the tenant has no such extension (deleted, or re-created under a new appId with a new name)`,
    );
    const live =
      names.length === 0
        ? {}
        : await context.graph.object({
            template: '/v1.0/users/{id}',
            params: { id: record.id },
            select: ['id', ...names],
            signal: context.signal,
          });
    const cleared = Object.keys(extensionValues(live)).filter((name) => !(name in wanted));
    const body = { ...Object.fromEntries(cleared.map((name) => [name, null])), ...wanted };
    if (Object.keys(body).length > 0)
      await context.graph.write({
        method: 'PATCH',
        template: '/v1.0/users/{id}',
        params: { id: record.id },
        body,
        // The user may have been created a moment ago (Graph replicates with a delay).
        retryNotFound: true,
        signal: context.signal,
      });
    return notes;
  };
  return {
    writable: extensionValues,
    create: (record, context) => write(record, context).then((notes) => ({ id: record.id, notes })),
    update: (record, _live, context) => write(record, context),
    notes: [
      'Graph has no update of a directory extension definition (extensionProperty): a changed one is deleted and created again, and its values on users go with the old one; a value is restored under the name the backup has, which an extension re-created under a new appId no longer has',
    ],
  };
}

/**
 * A user's manager ("Assign manager": `PUT /users/{id}/manager/$ref`, "Remove manager": `DELETE
 * /users/{id}/manager/$ref`, User.ReadWrite.All): the record is the user's (its id), its manager
 * null when it has none.
 */
function userManager(): EntraRestoreDefinition {
  const write = async (record: ResourceRecord, context: EntraWriteContext) => {
    const manager = record.data.manager as GraphObject | null | undefined;
    await context.graph.write({
      method: manager ? 'PUT' : 'DELETE',
      template: '/v1.0/users/{id}/manager/$ref',
      params: { id: record.id },
      ...(manager ? { body: directoryObjectReference(context.graph.graphOrigin, String(manager.id)) } : {}),
      okOn: manager ? [] : [404],
      // Either user may have been created a moment ago (Graph replicates with a delay).
      retryNotFound: manager !== null && manager !== undefined,
      signal: context.signal,
    });
  };
  return {
    writable: (data) => ({ managerId: (data.manager as GraphObject | null | undefined)?.id ?? null }),
    create: (record, context) =>
      (record.data.manager ? write(record, context) : Promise.resolve()).then(() => ({ id: record.id })),
    update: (record, _live, context) => write(record, context).then(() => []),
  };
}

/** Members of a rule an update sends: the rule's own (`id`, `@odata.type`, `target`, its settings). */
const RULE_SERVER_SET = ['lastModifiedDateTime', 'lastModifiedBy'];

/** A role management policy's rules by id, as a restore compares them. */
function rulesOf(data: GraphObject): GraphObject[] {
  const rules = Array.isArray(data.rules) ? (data.rules as GraphObject[]) : [];
  return [...rules].sort((a, b) => String(a.id).localeCompare(String(b.id)));
}

/**
 * A role's PIM settings ("Update unifiedRoleManagementPolicyRule": `PATCH
 * /policies/roleManagementPolicies/{id}/rules/{ruleId}` with the rule's `@odata.type`,
 * RoleManagementPolicy.ReadWrite.Directory): each rule that differs from the backup's is
 * written; Entra makes and deletes the policies with their roles.
 */
function roleManagementPolicy(): EntraRestoreDefinition {
  return {
    writable: (data) => ({ rules: rulesOf(data) }),
    managedBecause: () => ROLE_POLICY_MANAGED,
    async update(record, live, context) {
      const current = new Map<string, string>();
      const liveRecord = await context.graph.object({
        template: '/v1.0/policies/roleManagementPolicies/{id}',
        params: { id: live.id },
        query: { $expand: 'rules' },
        signal: context.signal,
      });
      for (const rule of rulesOf(liveRecord)) current.set(String(rule.id), contentHash(rule, []));
      for (const rule of rulesOf(record.data)) {
        if (current.get(String(rule.id)) === contentHash(rule, [])) continue;
        await context.graph.write({
          method: 'PATCH',
          template: '/v1.0/policies/roleManagementPolicies/{id}/rules/{ruleId}',
          params: { id: live.id, ruleId: String(rule.id) },
          body: omit(rule, RULE_SERVER_SET),
          signal: context.signal,
        });
      }
      return [];
    },
    notes: [ROLE_POLICY_MANAGED],
  };
}

const ROLE_POLICY_MANAGED =
  'Entra keeps one role management policy for each role, made and deleted with the role: a restore writes its rules (expiration, justification, MFA, approval, notifications), never the policy itself';

/** Members of an app management policy Graph sets or that are written elsewhere (`appliesTo`). */
const APP_POLICY_NOT_WRITTEN = [...ENTRA_SERVER_OWNED, 'appliesTo'];

/**
 * How a restore writes what other restores depend on (docs/restore.md "Microsoft Entra ID"):
 * - a domain's federation ("Create internalDomainFederation", "Update", "Delete": Domain.ReadWrite.All),
 *   one per domain, matched by its domain;
 * - identity providers ("Update identityProvider", "Delete"): one deleted is not created again,
 *   its client secret being write-only;
 * - attribute sets and custom security attribute definitions ("Create attributeSet", "Update
 *   attributeSet", "Create customSecurityAttributeDefinition", "Update": only `description`,
 *   `status` and `usePreDefinedValuesOnly` change), never deleted (Graph has no delete);
 * - authentication contexts ("Create authenticationContextClassReference" with its id, "Update",
 *   "Delete");
 * - terms of use agreements: not written (no application permission writes them);
 * - a user's manager and licences; a role's PIM rules; the default and custom app management
 *   policies ("Update tenantAppManagementPolicy", "Create appManagementPolicy", "Update", "Delete").
 */
export function dependencyDefinitions(): Partial<Record<EntraResourceType, EntraRestoreDefinition>> {
  return {
    domain_federation_configuration: graphCollection(
      { path: '/v1.0/domains/{domainId}/federationConfiguration', params: ['domainId', 'id'] },
      {
        ...keyed('domain_federation_configuration', (record) => idParts(record.id)[0] ?? null),
        notes: [
          'A federation is restored with its token-signing certificate (public part): the on-premises identity provider must still sign with the matching key, or users of the domain cannot sign in',
        ],
      },
    ),
    identity_provider: graphCollection(
      {
        path: '/v1.0/identity/identityProviders',
        params: ['id'],
        updateBody: (writable, record) => ({ '@odata.type': record.data['@odata.type'], ...writable }),
      },
      {
        writable: (data) => omit(data, [...ENTRA_SERVER_OWNED, 'clientSecret']),
        naturalKey: byDisplayName,
        create: undefined,
        notes: [
          "An identity provider's client secret is write-only (Graph answers ****): one deleted is not created again; add it in the Entra admin center with its secret from the provider's console",
        ],
      },
    ),
    attribute_set: graphCollection(
      {
        path: '/v1.0/directory/attributeSets',
        params: ['id'],
        createBody: withOwnId,
        updateBody: (writable) => pick(writable, ['description', 'maxAttributesPerSet']),
        noDelete: true,
      },
      { notes: ['Graph never deletes an attribute set: one the backup lacks stays'] },
    ),
    custom_security_attribute_definition: graphCollection(
      {
        path: '/v1.0/directory/customSecurityAttributeDefinitions',
        params: ['id'],
        updateBody: (writable) => pick(writable, ['description', 'status', 'usePreDefinedValuesOnly']),
        noDelete: true,
      },
      {
        notes: [
          'Graph never deletes a custom security attribute definition: one the backup lacks is deactivated by hand (status Deprecated)',
          "A definition's predefined values (allowedValues) are not backed up: add them again",
        ],
      },
    ),
    authentication_context_class_reference: graphCollection(
      {
        path: '/v1.0/identity/conditionalAccess/authenticationContextClassReferences',
        params: ['id'],
        createBody: withOwnId,
      },
      {},
    ),
    terms_of_use_agreement: {
      notes: [
        'Graph takes no application permission to create, change or delete a terms of use agreement ("Create agreement": application "Not supported"): set it again in the Entra admin center with its PDF',
      ],
    },
    user_manager: userManager(),
    user_license: userLicense(),
    user_extension_values: userExtensionValues(),
    role_management_policy: roleManagementPolicy(),
    role_management_policy_assignment: {
      notes: ['Entra assigns each role its role management policy: nothing to restore'],
    },
    default_app_management_policy: graphSingleton('/v1.0/policies/defaultAppManagementPolicy'),
    app_management_policy: graphCollection(
      { path: '/v1.0/policies/appManagementPolicies', params: ['id'] },
      {
        writable: (data) => omit(data, APP_POLICY_NOT_WRITTEN),
        naturalKey: byDisplayName,
        notes: [
          'The applications and service principals a custom app management policy applies to are not restored: assign it again',
        ],
      },
    ),
  };
}
