import { randomUUID } from 'node:crypto';

import { json, type Reply } from '@libs/simulators/kit/http/reply.js';
import type { Route } from '@libs/simulators/kit/http/router.js';

import { normalizeConditionalAccessPolicy } from './conditional-access-normalization.js';
import { jsonObjectBody } from './json-body.js';
import { requireConditionLicences } from './licences.js';
import { badRequest, GraphError, notFound } from './graph-error.js';
import { type GraphContext, graphRoute, requireRole } from './graph-route.js';
import { entityReply } from './odata-list.js';
import type { Collection, GraphObject, TenantState } from './tenant-state.js';

/**
 * The group setting templates a tenant has, id -> displayName ("groupSettingTemplate resource
 * type": Group.Unified, Group.Unified.Guest; the real tenant's export names Consent Policy Settings).
 */
const GROUP_SETTING_TEMPLATES: Readonly<Record<string, string>> = {
  '62375ab9-6b52-47ed-826b-58e47e0e304b': 'Group.Unified',
  '08d542b9-071f-4e16-94b0-74abb372e3d9': 'Group.Unified.Guest',
  'dffd5d46-495d-40a9-8e21-954ff55e198a': 'Consent Policy Settings',
};

const CONDITIONAL_ACCESS = ['Policy.ReadWrite.ConditionalAccess'];
const APPLICATION_POLICIES = ['Policy.ReadWrite.ApplicationConfiguration'];
const CROSS_TENANT = ['Policy.ReadWrite.CrossTenantAccess'];

/**
 * A policy collection written by POST (create), PATCH `/{key}` and DELETE `/{key}`, with the
 * application permissions of its "Create", "Update" and "Delete" API reference pages.
 */
export interface PolicyCollection {
  path: string;
  collection: Collection;
  roles: readonly string[];
  /** properties "Create ..." requires in the body */
  required: readonly string[];
  /** the member that keys an object: `id` (Graph makes it) or one the body gives */
  key?: 'tenantId' | 'id-from-body';
  /** Graph stamps `createdDateTime` and `modifiedDateTime` on create and `modifiedDateTime` on update */
  stamped?: true;
  /** an update's body must carry the object's `@odata.type` ("Update namedLocation") */
  typedUpdate?: true;
  /** what Graph stores for a written object (the merged result of a create or update) */
  onWrite?(object: GraphObject, state: TenantState): GraphObject;
  /** why an existing object cannot be updated or deleted (a built-in), or undefined */
  readOnly?(object: GraphObject): string | undefined;
  /** permissions a DELETE needs all of, on top of `roles` ("Policy.Read.All and ...") */
  deleteAlso?: readonly string[];
  /**
   * An update merges complex members into the stored ones, at any depth (collections and nulls
   * replace): "Update conditionalAccessPolicy" says members left out "maintain their previous
   * values", and its example PATCHes `conditions` with `signInRiskLevels` alone.
   */
  mergeComplex?: true;
  /** navigation properties a create or update may not carry: they are written through their own paths */
  navigation?: readonly string[];
  /** members an update may not carry -> why (written by an action) */
  updateRefuses?: Readonly<Record<string, string>>;
  /** a tenant holds one at most */
  onlyOne?: true;
  /** the id of a created object made from its body (a custom security attribute's `<set>_<name>`) */
  makeKey?(body: Record<string, unknown>): string;
  /** Graph has no DELETE of the type (attribute sets and definitions are deactivated, not deleted) */
  noDelete?: true;
}

/**
 * The collections of the restorable policy types (docs/restore.md "Microsoft Entra ID"), from each type's API
 * reference pages:
 * - "Create namedLocation" (`@odata.type` and `displayName` required), "Update namedLocation"
 *   (the body must carry the location's `@odata.type`), "Delete namedLocation":
 *   Policy.ReadWrite.ConditionalAccess;
 * - "Create conditionalAccessPolicy", "Update conditionalAccessPolicy": Policy.ReadWrite.ConditionalAccess
 *   (with Policy.Read.All in delegated use), "Delete conditionalAccessPolicy": Policy.Read.All and
 *   Policy.ReadWrite.ConditionalAccess; Graph rewrites what is written (conditional-access-normalization.ts);
 * - "Create authenticationStrengthPolicy" (Policy.ReadWrite.ConditionalAccess, higher
 *   Policy.ReadWrite.AuthenticationMethod): `policyType` custom, `requirementsSatisfied` mfa;
 *   "You can't update a built-in authenticationStrengthPolicy object" nor delete one; its
 *   `allowedCombinations` change only through `updateAllowedCombinations`;
 * - "Create permissionGrantPolicy" (the body gives the `id`), Policy.ReadWrite.PermissionGrant;
 * - "Create tokenLifetimePolicy" and the token issuance, claims mapping and home realm discovery
 *   pages (`definition` and `displayName` required): Policy.ReadWrite.ApplicationConfiguration;
 * - "Create groupSetting" (`templateId` required): GroupSettings.ReadWrite.All, higher
 *   Directory.ReadWrite.All, Policy.ReadWrite.Authorization;
 * - "Create groupLifecyclePolicy" ("Only one policy exists in the tenant"): Directory.ReadWrite.All;
 * - "Create crossTenantAccessPolicyConfigurationPartner" (keyed by `tenantId`), "Update" and
 *   "Delete" of a partner: Policy.ReadWrite.CrossTenantAccess.
 */
const POLICY_COLLECTIONS: readonly PolicyCollection[] = [
  {
    path: 'identity/conditionalAccess/namedLocations',
    collection: 'namedLocations',
    roles: CONDITIONAL_ACCESS,
    required: ['@odata.type', 'displayName'],
    stamped: true,
    typedUpdate: true,
  },
  {
    path: 'identity/conditionalAccess/policies',
    collection: 'conditionalAccessPolicies',
    roles: CONDITIONAL_ACCESS,
    required: ['displayName', 'state', 'conditions'],
    stamped: true,
    mergeComplex: true,
    // Graph refuses conditions the tenant's licences do not cover (licences.ts)
    onWrite: (policy, state) =>
      normalizeConditionalAccessPolicy(
        requireConditionLicences(policy, state),
        state.collection('authenticationStrengthPolicies'),
      ),
    deleteAlso: ['Policy.Read.All'],
  },
  {
    path: 'policies/authenticationStrengthPolicies',
    collection: 'authenticationStrengthPolicies',
    roles: [...CONDITIONAL_ACCESS, 'Policy.ReadWrite.AuthenticationMethod'],
    required: ['displayName', 'allowedCombinations'],
    stamped: true,
    onWrite: (policy) => ({
      description: null,
      ...policy,
      policyType: 'custom',
      requirementsSatisfied: 'mfa',
    }),
    updateRefuses: {
      allowedCombinations: 'allowedCombinations is updated with the updateAllowedCombinations action.',
    },
    readOnly: (policy) =>
      policy.policyType === 'builtIn'
        ? "A built-in authentication strength policy can't be changed."
        : undefined,
  },
  {
    path: 'policies/permissionGrantPolicies',
    collection: 'permissionGrantPolicies',
    roles: ['Policy.ReadWrite.PermissionGrant'],
    required: ['id', 'displayName'],
    key: 'id-from-body',
    // includes and excludes are navigation properties, added after the policy is created
    // ("Create permissionGrantConditionSet in includes collection"), expanded on GET
    navigation: ['includes', 'excludes'],
    onWrite: (policy) => ({
      description: null,
      includes: [],
      excludes: [],
      deletedDateTime: null,
      ...policy,
    }),
    readOnly: (policy) =>
      policy.id.startsWith('microsoft-') ? "A built-in permission grant policy can't be changed." : undefined,
  },
  ...(
    [
      'tokenLifetimePolicies',
      'tokenIssuancePolicies',
      'claimsMappingPolicies',
      'homeRealmDiscoveryPolicies',
    ] as const
  ).map((collection): PolicyCollection => ({
    path: `policies/${collection}`,
    collection,
    roles: APPLICATION_POLICIES,
    required: ['definition', 'displayName'],
    onWrite: (policy) => ({ isOrganizationDefault: false, deletedDateTime: null, ...policy }),
  })),
  {
    path: 'groupSettings',
    collection: 'groupSettings',
    roles: ['GroupSettings.ReadWrite.All', 'Directory.ReadWrite.All', 'Policy.ReadWrite.Authorization'],
    required: ['templateId'],
    // "groupSetting resource type": displayName is read-only, the name of the setting's template
    onWrite: (setting) => ({
      values: [],
      ...setting,
      displayName: GROUP_SETTING_TEMPLATES[String(setting.templateId)] ?? null,
    }),
  },
  {
    path: 'groupLifecyclePolicies',
    collection: 'groupLifecyclePolicies',
    roles: ['Directory.ReadWrite.All'],
    required: ['groupLifetimeInDays', 'managedGroupTypes'],
    onlyOne: true,
  },
  {
    path: 'policies/crossTenantAccessPolicy/partners',
    collection: 'crossTenantAccessPolicyPartners',
    roles: CROSS_TENANT,
    required: ['tenantId'],
    key: 'tenantId',
    onWrite: (partner) => ({
      isServiceProvider: null,
      isInMultiTenantOrganization: false,
      inboundTrust: null,
      b2bCollaborationInbound: null,
      b2bCollaborationOutbound: null,
      b2bDirectConnectInbound: null,
      b2bDirectConnectOutbound: null,
      ...partner,
    }),
  },
];

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `changes` merged into `target`: objects member by member, anything else replaced. */
function merged(target: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const result = { ...target };
  for (const [name, change] of Object.entries(changes))
    result[name] = isObject(change) && isObject(result[name]) ? merged(result[name], change) : change;
  return result;
}

/** Members a write never sets: the key and what Graph stamps. */
const SERVER_SET = ['id', 'createdDateTime', 'modifiedDateTime', 'deletedDateTime'];

function withoutServerSet(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([name]) => !SERVER_SET.includes(name)));
}

/** @throws GraphError 400 `BadRequest` naming the first required property the body lacks */
function requireProperties(body: Record<string, unknown>, names: readonly string[]): void {
  const missing = names.find((name) => body[name] === undefined || body[name] === null);
  if (missing) throw badRequest(`The property '${missing}' is required.`);
}

/** The key of an object of `spec` (partners are keyed by their `tenantId`). */
function keyOf(spec: PolicyCollection, object: Record<string, unknown>): string {
  return String(spec.key === 'tenantId' ? object.tenantId : object.id);
}

/** POST, PATCH and DELETE of one policy collection. */
export function collectionWrites(graph: GraphContext, spec: PolicyCollection): Route[] {
  const { state } = graph;
  const objects = state.collection(spec.collection);
  const base = `/v1.0/${spec.path}`;
  const find = (key: string): GraphObject => {
    const object = objects.get(key);
    if (!object) throw notFound(key);
    const reason = spec.readOnly?.(object);
    if (reason) throw badRequest(reason);
    return object;
  };
  const refuseNavigation = (body: Record<string, unknown>): void => {
    const named = spec.navigation?.find((name) => name in body);
    if (named) throw badRequest(`The navigation property '${named}' is written through its own path.`);
  };
  const store = (object: GraphObject): GraphObject => {
    const stored = spec.onWrite ? spec.onWrite(object, state) : object;
    objects.set(keyOf(spec, stored), stored);
    return stored;
  };
  return [
    graphRoute(graph, 'POST', base, spec.roles, ({ url, bodyText }) => {
      const body = jsonObjectBody(bodyText);
      requireProperties(body, spec.required);
      refuseNavigation(body);
      const now = new Date().toISOString();
      const id = spec.makeKey
        ? spec.makeKey(body)
        : spec.key === 'id-from-body'
          ? String(body.id)
          : randomUUID();
      const object = {
        ...withoutServerSet(body),
        ...(spec.key === 'tenantId' ? {} : { id }),
        ...(spec.stamped ? { createdDateTime: now, modifiedDateTime: now } : {}),
      } as GraphObject;
      if (objects.has(keyOf(spec, object)))
        throw new GraphError(
          409,
          'Request_MultipleObjectsWithSameKeyValue',
          `An object with the key '${keyOf(spec, object)}' already exists.`,
        );
      if (spec.onlyOne && objects.size > 0)
        throw badRequest(`Only one ${spec.path} object can exist in the tenant.`);
      const stored = store(object);
      return { ...entityReply(url, graph.baseUrl, `${spec.path}/$entity`, stored), status: 201 };
    }),
    graphRoute(graph, 'PATCH', `${base}/{key}`, spec.roles, ({ params, bodyText }) => {
      const object = find(params.key);
      const body = jsonObjectBody(bodyText);
      refuseNavigation(body);
      const type = object['@odata.type'];
      if (spec.typedUpdate && body['@odata.type'] !== type)
        throw badRequest(`The request body must carry the object's '@odata.type' (${String(type)}).`);
      const refused = Object.entries(spec.updateRefuses ?? {}).find(([name]) => name in body);
      if (refused) throw badRequest(refused[1]);
      const { tenantId: _tenantId, ...changes } = withoutServerSet(body);
      store({
        ...(spec.mergeComplex ? (merged(object, changes) as GraphObject) : { ...object, ...changes }),
        ...(spec.stamped ? { modifiedDateTime: new Date().toISOString() } : {}),
      });
      return { status: 204 };
    }),
    ...(spec.noDelete
      ? []
      : [
          graphRoute(graph, 'DELETE', `${base}/{key}`, spec.roles, ({ params, headers }) => {
            if (spec.deleteAlso) requireRole(graph, headers.authorization, spec.deleteAlso);
            find(params.key);
            objects.delete(params.key);
            return { status: 204 };
          }),
        ]),
  ];
}

/**
 * A singleton updated in place: PATCH (or PUT for the admin consent request policy) with the
 * permissions of its "Update" page, 204 No Content.
 */
interface SingletonWrite {
  method: 'PATCH' | 'PUT';
  path: string;
  collection: Collection;
  roles: readonly string[];
  required?: readonly string[];
  /** members the body may not carry (read-only, or navigation properties written elsewhere) */
  refused?: readonly string[];
  /** what Graph sets besides the body's members */
  after?(updated: Record<string, unknown>, before: Record<string, unknown>): Record<string, unknown>;
}

/**
 * The singletons' updates:
 * - "Update authorizationPolicy" (PATCH, Policy.ReadWrite.Authorization);
 * - "Update authenticationMethodsPolicy" (PATCH, Policy.ReadWrite.AuthenticationMethod): its
 *   method configurations are a navigation property (v1.0 CSDL), written one by one;
 * - "Update identitySecurityDefaultsEnforcementPolicy" (PATCH, Policy.ReadWrite.SecurityDefaults);
 * - "Update adminConsentRequestPolicy" (PUT; isEnabled, notifyReviewers, remindersEnabled,
 *   requestDurationInDays and reviewers required; Policy.ReadWrite.ConsentRequest, higher
 *   Directory.ReadWrite.All): `version` is read-only and "updated" with the policy;
 * - "Update crossTenantAccessPolicy" and "Update crossTenantAccessPolicyConfigurationDefault"
 *   (PATCH, Policy.ReadWrite.CrossTenantAccess): a changed default is no longer the service
 *   default (`isServiceDefault` false, the resource page's meaning of it).
 */
const SINGLETON_WRITES: readonly SingletonWrite[] = [
  {
    method: 'PATCH',
    path: 'policies/authorizationPolicy',
    collection: 'authorizationPolicy',
    roles: ['Policy.ReadWrite.Authorization'],
  },
  {
    method: 'PATCH',
    path: 'policies/authenticationMethodsPolicy',
    collection: 'authenticationMethodsPolicy',
    roles: ['Policy.ReadWrite.AuthenticationMethod'],
    refused: ['authenticationMethodConfigurations'],
  },
  {
    method: 'PATCH',
    path: 'policies/identitySecurityDefaultsEnforcementPolicy',
    collection: 'identitySecurityDefaultsEnforcementPolicy',
    roles: ['Policy.ReadWrite.SecurityDefaults'],
  },
  {
    method: 'PUT',
    path: 'policies/adminConsentRequestPolicy',
    collection: 'adminConsentRequestPolicy',
    roles: ['Policy.ReadWrite.ConsentRequest', 'Directory.ReadWrite.All'],
    required: ['isEnabled', 'notifyReviewers', 'remindersEnabled', 'requestDurationInDays', 'reviewers'],
    after: (_updated, before) => ({ version: Number(before.version ?? 0) + 1 }),
  },
  {
    method: 'PATCH',
    path: 'policies/crossTenantAccessPolicy',
    collection: 'crossTenantAccessPolicy',
    roles: CROSS_TENANT,
  },
  {
    method: 'PATCH',
    path: 'policies/crossTenantAccessPolicy/default',
    collection: 'crossTenantAccessPolicyDefault',
    roles: CROSS_TENANT,
    refused: ['isServiceDefault'],
    after: () => ({ isServiceDefault: false }),
  },
];

/**
 * `POST /policies/crossTenantAccessPolicy/default/resetToSystemDefault`
 * ("crossTenantAccessPolicyConfigurationDefault: resetToSystemDefault": "reset any changes made to
 * the default configuration ... back to the system default", Policy.ReadWrite.CrossTenantAccess,
 * 204): the default as the tenant was seeded with it when that was the service default, else
 * the generator's, `isServiceDefault` true.
 */
function resetCrossTenantDefault(graph: GraphContext): Route {
  const objects = graph.state.collection('crossTenantAccessPolicyDefault');
  const [[key, seeded] = []] = objects.entries();
  const system = seeded?.isServiceDefault === true ? structuredClone(seeded) : undefined;
  return graphRoute(
    graph,
    'POST',
    '/v1.0/policies/crossTenantAccessPolicy/default/resetToSystemDefault',
    CROSS_TENANT,
    () => {
      if (!key || !system) throw notFound('policies/crossTenantAccessPolicy/default');
      objects.set(key, { ...structuredClone(system), isServiceDefault: true });
      return { status: 204 };
    },
  );
}

function singletonWrite(graph: GraphContext, spec: SingletonWrite): Route {
  const objects = graph.state.collection(spec.collection);
  return graphRoute(graph, spec.method, `/v1.0/${spec.path}`, spec.roles, ({ bodyText }) => {
    const [[key, object] = []] = objects.entries();
    if (!key || !object) throw notFound(spec.path);
    const body = jsonObjectBody(bodyText);
    requireProperties(body, spec.required ?? []);
    const refused = (spec.refused ?? []).find((name) => name in body);
    if (refused) throw badRequest(`The property '${refused}' can't be written with this request.`);
    const { id: _id, ...changes } = body;
    const updated = { ...object, ...changes };
    objects.set(key, { ...updated, ...spec.after?.(updated, object) } as GraphObject);
    return { status: 204 };
  });
}

/**
 * "Update authenticationMethodConfiguration" (`PATCH /policies/authenticationMethodsPolicy/
 * authenticationMethodConfigurations/{id}`, Policy.ReadWrite.AuthenticationMethod): the body
 * carries the configuration's `@odata.type` (each method's update page, e.g. "Update
 * fido2AuthenticationMethodConfiguration"); 204.
 */
function methodConfigurationWrite(graph: GraphContext): Route {
  const path = '/v1.0/policies/authenticationMethodsPolicy/authenticationMethodConfigurations/{id}';
  return graphRoute(
    graph,
    'PATCH',
    path,
    ['Policy.ReadWrite.AuthenticationMethod'],
    ({ params, bodyText }) => {
      const policies = graph.state.collection('authenticationMethodsPolicy');
      const [[key, policy] = []] = policies.entries();
      const configurations = (policy?.authenticationMethodConfigurations ?? []) as GraphObject[];
      const at = configurations.findIndex((c) => c.id.toLowerCase() === params.id.toLowerCase());
      if (!key || !policy || at === -1) throw notFound(params.id);
      const body = jsonObjectBody(bodyText);
      const type = configurations[at]['@odata.type'];
      if (type !== undefined && body['@odata.type'] !== undefined && body['@odata.type'] !== type)
        throw badRequest(`The @odata.type of configuration '${params.id}' is ${String(type)}.`);
      const { id: _id, ...changes } = body;
      const next = [...configurations];
      next[at] = { ...configurations[at], ...changes, id: configurations[at].id };
      policies.set(key, { ...policy, authenticationMethodConfigurations: next });
      return { status: 204 };
    },
  );
}

/**
 * "Update organization" (`PATCH /organization/{id}`, Organization.ReadWrite.All; the properties
 * it lists as writable: marketingNotificationEmails, onPremisesSyncEnabled, privacyProfile,
 * securityComplianceNotificationMails, securityComplianceNotificationPhones,
 * technicalNotificationMails; others are refused) and "Update organizationalBranding" (`PATCH
 * /organization/{id}/branding`, OrganizationalBranding.ReadWrite.All, higher
 * Organization.ReadWrite.All: the String members; the default branding object is made when the
 * organization has none, its id `0`).
 */
export const ORGANIZATION_WRITABLE = [
  'marketingNotificationEmails',
  'onPremisesSyncEnabled',
  'privacyProfile',
  'securityComplianceNotificationMails',
  'securityComplianceNotificationPhones',
  'technicalNotificationMails',
] as const;

function organizationWrites(graph: GraphContext): Route[] {
  const { state } = graph;
  return [
    graphRoute(
      graph,
      'PATCH',
      '/v1.0/organization/{id}',
      ['Organization.ReadWrite.All'],
      ({ params, bodyText }) => {
        const organization = state.collection('organization').get(params.id);
        if (!organization) throw notFound(params.id);
        const body = jsonObjectBody(bodyText);
        const refused = Object.keys(body).find(
          (name) => !(ORGANIZATION_WRITABLE as readonly string[]).includes(name),
        );
        if (refused) throw badRequest(`The property '${refused}' of the organization can't be updated.`);
        state.put('organization', { ...organization, ...body, id: params.id });
        return { status: 204 };
      },
    ),
    graphRoute(
      graph,
      'PATCH',
      '/v1.0/organization/{id}/branding',
      ['OrganizationalBranding.ReadWrite.All', 'Organization.ReadWrite.All'],
      ({ params, bodyText }): Reply => {
        if (!state.collection('organization').has(params.id)) throw notFound(params.id);
        const [branding] = state.childrenOf('branding', params.id);
        const { id: _id, ...changes } = jsonObjectBody(bodyText);
        state.addChild('branding', params.id, { ...(branding ?? {}), ...changes, id: '0' });
        return { status: 204 };
      },
    ),
  ];
}

/**
 * "Update authenticationStrengthPolicy: updateAllowedCombinations" (`POST
 * /policies/authenticationStrengthPolicies/{id}/updateAllowedCombinations` with
 * `allowedCombinations`; Policy.ReadWrite.ConditionalAccess, higher
 * Policy.ReadWrite.AuthenticationMethod): 200 with an `updateAllowedCombinationsResult`.
 */
function allowedCombinationsWrite(graph: GraphContext): Route {
  const strengths = graph.state.collection('authenticationStrengthPolicies');
  return graphRoute(
    graph,
    'POST',
    '/v1.0/policies/authenticationStrengthPolicies/{id}/updateAllowedCombinations',
    [...CONDITIONAL_ACCESS, 'Policy.ReadWrite.AuthenticationMethod'],
    ({ params, bodyText }) => {
      const policy = strengths.get(params.id);
      if (!policy) throw notFound(params.id);
      if (policy.policyType === 'builtIn')
        throw badRequest("A built-in authentication strength policy can't be changed.");
      const body = jsonObjectBody(bodyText);
      if (!Array.isArray(body.allowedCombinations)) throw badRequest("'allowedCombinations' is required.");
      const previous = (policy.allowedCombinations ?? []) as string[];
      const next = body.allowedCombinations as string[];
      strengths.set(params.id, {
        ...policy,
        allowedCombinations: next,
        modifiedDateTime: new Date().toISOString(),
      });
      return json(200, {
        '@odata.context': `${graph.baseUrl}/v1.0/$metadata#microsoft.graph.updateAllowedCombinationsResult`,
        additionalInformation: null,
        conditionalAccessReferences: [],
        currentCombinations: next,
        previousCombinations: previous,
      });
    },
  );
}

/**
 * A permission grant policy's condition sets: "Create permissionGrantConditionSet in includes
 * collection of permissionGrantPolicy" (`POST /policies/permissionGrantPolicies/{id}/includes`,
 * 201 with the set, Graph giving its id), the same in `excludes`, and "Delete
 * permissionGrantConditionSet from includes/excludes" (`DELETE .../{id}/includes/{setId}`, 204):
 * Policy.ReadWrite.PermissionGrant. A built-in policy's sets are refused.
 */
function conditionSetWrites(graph: GraphContext): Route[] {
  const policies = graph.state.collection('permissionGrantPolicies');
  const roles = ['Policy.ReadWrite.PermissionGrant'];
  const policyOf = (id: string): GraphObject => {
    const policy = policies.get(id);
    if (!policy) throw notFound(id);
    if (id.startsWith('microsoft-')) throw badRequest("A built-in permission grant policy can't be changed.");
    return policy;
  };
  return (['includes', 'excludes'] as const).flatMap((member) => [
    graphRoute(
      graph,
      'POST',
      `/v1.0/policies/permissionGrantPolicies/{id}/${member}`,
      roles,
      ({ url, params, bodyText }) => {
        const policy = policyOf(params.id);
        const { id: _id, ...set } = jsonObjectBody(bodyText);
        const created = { id: randomUUID(), ...set };
        policies.set(params.id, {
          ...policy,
          [member]: [...((policy[member] ?? []) as GraphObject[]), created],
        });
        const context = `policies/permissionGrantPolicies('${params.id}')/${member}/$entity`;
        return { ...entityReply(url, graph.baseUrl, context, created as GraphObject), status: 201 };
      },
    ),
    graphRoute(
      graph,
      'DELETE',
      `/v1.0/policies/permissionGrantPolicies/{id}/${member}/{setId}`,
      roles,
      ({ params }) => {
        const policy = policyOf(params.id);
        const sets = (policy[member] ?? []) as GraphObject[];
        if (!sets.some((set) => set.id === params.setId)) throw notFound(params.setId);
        policies.set(params.id, { ...policy, [member]: sets.filter((set) => set.id !== params.setId) });
        return { status: 204 };
      },
    ),
  ]);
}

/**
 * The conditional access deleted items the v1.0 CSDL declares (`conditionalAccessRoot/deletedItems`,
 * a `caPoliciesDeletableRoot` with `policies` and `namedLocations`, each with a bound `restore`).
 * Their API reference pages ("List deleted policies", "Restore conditionalAccessPolicy",
 * "policyDeletableItem: list") say application permissions are "Not supported": an app token,
 * the only kind the simulator issues, is refused with 403 on every one of them. A restore by an
 * app therefore re-creates a deleted policy or named location, with a new id.
 */
function conditionalAccessDeletedItems(graph: GraphContext): Route[] {
  const base = '/v1.0/identity/conditionalAccess/deletedItems';
  const refused = ({ headers }: { headers: Record<string, string | string[] | undefined> }): Reply => {
    requireRole(graph, headers.authorization as string | undefined, []);
    return { status: 204 };
  };
  return ['policies', 'namedLocations'].flatMap((segment) =>
    (
      [
        ['GET', `${base}/${segment}`],
        ['GET', `${base}/${segment}/{id}`],
        ['POST', `${base}/${segment}/{id}/restore`],
        ['DELETE', `${base}/${segment}/{id}`],
      ] as const
    ).map(([method, template]): Route => ({
      method,
      template,
      access: { kind: 'public' },
      handle: refused,
    })),
  );
}

/**
 * The writes a restore of those policy types makes (see each table above), registered by
 * graph.routes.ts. Objects are kept in the tenant's collections as Graph answers them after the
 * write; these types have no delta function, so no change is logged.
 */
export function policyWriteRoutes(graph: GraphContext): Route[] {
  return [
    ...POLICY_COLLECTIONS.flatMap((spec) => collectionWrites(graph, spec)),
    ...SINGLETON_WRITES.map((spec) => singletonWrite(graph, spec)),
    resetCrossTenantDefault(graph),
    methodConfigurationWrite(graph),
    allowedCombinationsWrite(graph),
    ...conditionSetWrites(graph),
    ...organizationWrites(graph),
    ...conditionalAccessDeletedItems(graph),
  ];
}
