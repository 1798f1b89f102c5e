import { randomUUID } from 'node:crypto';

import type { Route } from '@libs/simulators/kit/http/router.js';

import { requireMembers } from './application-writes.routes.js';
import { badRequest, GraphError, notFound } from './graph-error.js';
import { type GraphContext, graphRoute } from './graph-route.js';
import { collectionRoutes, singletonRoute } from './graph.routes.js';
import { addTokenSigningCertificate } from './identifier-uris.js';
import { jsonObjectBody } from './json-body.js';
import { entityReply, listPage } from './odata-list.js';
import { collectionWrites } from './policy-writes.routes.js';
import { FEDERATION_DEFAULTS, MASKED_SECRET } from './dependency-objects.js';
import type { GraphObject } from './tenant-state.js';

const DIRECTORY = ['Directory.Read.All', 'Directory.ReadWrite.All'];
const USERS = ['User.Read.All', 'User.ReadWrite.All', ...DIRECTORY];
const USER_WRITES = ['User.ReadWrite.All', 'Directory.ReadWrite.All'];
const DOMAINS = [
  'Domain.Read.All',
  'Domain.ReadWrite.All',
  'Domain-InternalFederation.Read.All',
  ...DIRECTORY,
];
const FEDERATION_WRITES = ['Domain.ReadWrite.All', 'Domain-InternalFederation.ReadWrite.All'];
const ATTRIBUTES = ['CustomSecAttributeDefinition.Read.All', 'CustomSecAttributeDefinition.ReadWrite.All'];
const CONTEXTS = [
  'AuthenticationContext.Read.All',
  'AuthenticationContext.ReadWrite.All',
  'Policy.Read.ConditionalAccess',
  'Policy.ReadWrite.ConditionalAccess',
];
const PROVIDERS = ['IdentityProvider.Read.All', 'IdentityProvider.ReadWrite.All'];
const AGREEMENTS = ['Agreement.Read.All', 'Agreement.ReadWrite.All'];
const APP_POLICIES = ['Policy.Read.All', 'Policy.ReadWrite.ApplicationConfiguration'];

/**
 * A domain's federation ("domain-list-federationconfiguration": "returns only one object in the
 * collection"; Domain.Read.All, Domain-InternalFederation.Read.All...; "Create
 * internalDomainFederation" (`POST /domains/{id}/federationConfiguration`, Domain.ReadWrite.All or
 * Domain-InternalFederation.ReadWrite.All), "Update internalDomainFederation", "Delete
 * internalDomainFederation"): the tenant's initial domain cannot be federated; a federated
 * domain's `authenticationType` reads `Federated`, `Managed` again once its federation is deleted.
 */
function federationRoutes(graph: GraphContext): Route[] {
  const { state } = graph;
  const base = '/v1.0/domains/{id}/federationConfiguration';
  const domain = (id: string): GraphObject => {
    const found = state.collection('domains').get(id.toLowerCase());
    if (!found) throw notFound(id);
    return found;
  };
  const federation = (domainId: string, id: string): GraphObject => {
    const found = state.childrenOf('federationConfiguration', domain(domainId).id).find((f) => f.id === id);
    if (!found) throw notFound(id);
    return found;
  };
  const context = (id: string) => `domains('${id}')/federationConfiguration`;
  return [
    graphRoute(graph, 'GET', base, DOMAINS, ({ url, params }) =>
      listPage(
        url,
        graph.baseUrl,
        context(params.id),
        state.childrenOf('federationConfiguration', domain(params.id).id),
      ),
    ),
    graphRoute(graph, 'GET', `${base}/{fid}`, DOMAINS, ({ url, params }) =>
      entityReply(url, graph.baseUrl, `${context(params.id)}/$entity`, federation(params.id, params.fid)),
    ),
    graphRoute(graph, 'POST', base, FEDERATION_WRITES, ({ url, params, bodyText }) => {
      const target = domain(params.id);
      if (target.isInitial === true) throw badRequest('The initial domain of a tenant cannot be federated.');
      if (state.childrenOf('federationConfiguration', target.id).length > 0)
        throw new GraphError(
          409,
          'Request_MultipleObjectsWithSameKeyValue',
          'The domain is already federated.',
        );
      const { id: _id, ...body } = jsonObjectBody(bodyText);
      requireMembers(body, ['issuerUri', 'signingCertificate']);
      const created: GraphObject = {
        '@odata.type': '#microsoft.graph.internalDomainFederation',
        ...FEDERATION_DEFAULTS,
        ...body,
        id: randomUUID(),
      };
      state.addChild('federationConfiguration', target.id, created);
      state.put('domains', { ...target, authenticationType: 'Federated' });
      return { ...entityReply(url, graph.baseUrl, `${context(params.id)}/$entity`, created), status: 201 };
    }),
    graphRoute(graph, 'PATCH', `${base}/{fid}`, FEDERATION_WRITES, ({ params, bodyText }) => {
      const current = federation(params.id, params.fid);
      const { id: _id, '@odata.type': _type, ...changes } = jsonObjectBody(bodyText);
      state.addChild('federationConfiguration', domain(params.id).id, { ...current, ...changes });
      return { status: 204 };
    }),
    graphRoute(graph, 'DELETE', `${base}/{fid}`, FEDERATION_WRITES, ({ params }) => {
      federation(params.id, params.fid);
      const target = domain(params.id);
      state.removeChild('federationConfiguration', target.id, params.fid);
      state.put('domains', { ...target, authenticationType: 'Managed' });
      return { status: 204 };
    }),
  ];
}

/**
 * A user's manager ("List manager": 404 `Request_ResourceNotFound` when none; "Assign manager":
 * `PUT /users/{id}/manager/$ref` with the manager's `@odata.id`, 204; "Remove manager": `DELETE
 * /users/{id}/manager/$ref`, 204; User.ReadWrite.All or Directory.ReadWrite.All to write). A
 * manager is a user or an organizational contact; a user is not their own manager.
 */
function managerRoutes(graph: GraphContext): Route[] {
  const { state } = graph;
  const user = (id: string): GraphObject => {
    const found = state.collection('users').get(id);
    if (!found) throw notFound(id);
    return found;
  };
  return [
    graphRoute(graph, 'GET', '/v1.0/users/{id}/manager', USERS, ({ url, params }) => {
      const [link] = state.childrenOf('manager', user(params.id).id);
      const manager = link && state.directoryObject(link.id);
      if (!manager) throw notFound('manager');
      return entityReply(url, graph.baseUrl, 'directoryObjects/$entity', manager);
    }),
    graphRoute(graph, 'PUT', '/v1.0/users/{id}/manager/$ref', USER_WRITES, ({ params, bodyText }) => {
      user(params.id);
      const reference = jsonObjectBody(bodyText)['@odata.id'];
      const managerId = typeof reference === 'string' ? reference.split('/').pop() : undefined;
      if (!managerId) throw badRequest("The request body must carry the manager's '@odata.id'.");
      if (!state.collection('users').has(managerId)) throw notFound(managerId);
      if (managerId === params.id) throw badRequest('A user cannot be their own manager.');
      for (const link of state.childrenOf('manager', params.id))
        state.removeChild('manager', params.id, link.id);
      state.addChild('manager', params.id, { id: managerId });
      return { status: 204 };
    }),
    graphRoute(graph, 'DELETE', '/v1.0/users/{id}/manager/$ref', USER_WRITES, ({ params }) => {
      user(params.id);
      const [link] = state.childrenOf('manager', params.id);
      if (!link) throw notFound('manager');
      state.removeChild('manager', params.id, link.id);
      return { status: 204 };
    }),
  ];
}

/**
 * "user: assignLicense" (`POST /users/{id}/assignLicense` with `addLicenses` ({ skuId,
 * disabledPlans }) and `removeLicenses` (SKU ids), both required, 200 with the user;
 * LicenseAssignment.ReadWrite.All, higher User.ReadWrite.All and Directory.ReadWrite.All): the
 * user's `assignedLicenses` change, a SKU assigned again taking its new disabled plans. Graph
 * refuses a SKU the tenant does not subscribe to, and any assignment to a user without a
 * `usageLocation`.
 */
function assignLicenseRoute(graph: GraphContext): Route {
  const { state } = graph;
  const writes = ['LicenseAssignment.ReadWrite.All', ...USER_WRITES];
  return graphRoute(graph, 'POST', '/v1.0/users/{id}/assignLicense', writes, ({ url, params, bodyText }) => {
    const user = state.collection('users').get(params.id);
    if (!user) throw notFound(params.id);
    const body = jsonObjectBody(bodyText);
    if (!Array.isArray(body.addLicenses) || !Array.isArray(body.removeLicenses))
      throw badRequest('addLicenses and removeLicenses are required.');
    const adds = body.addLicenses as Array<{ skuId?: unknown; disabledPlans?: unknown }>;
    const removes = (body.removeLicenses as unknown[]).map(String);
    if (adds.length > 0 && !user.usageLocation)
      throw badRequest('License assignment cannot be done for user with invalid usage location.');
    for (const skuId of [...adds.map((add) => String(add.skuId)), ...removes])
      if (!state.collection('subscribedSkus').has(skuId))
        throw badRequest(`License ${skuId} does not correspond to a valid company License.`);
    const added = adds.map((add) => ({
      disabledPlans: Array.isArray(add.disabledPlans) ? add.disabledPlans.map(String) : [],
      skuId: String(add.skuId),
    }));
    const current = ((user.assignedLicenses ?? []) as Array<{ skuId: string }>).filter(
      ({ skuId }) => !removes.includes(skuId) && !added.some((add) => add.skuId === skuId),
    );
    const updated = state.update('users', params.id, { assignedLicenses: [...current, ...added] })!;
    return entityReply(url, graph.baseUrl, 'users/$entity', updated);
  });
}

/**
 * Role management policies of the directory's roles and their assignments to roles ("List
 * roleManagementPolicies", "List roleManagementPolicyAssignments": `$filter` on `scopeId` and
 * `scopeType` required; RoleManagementPolicy.Read.Directory, higher RoleManagement.Read.Directory
 * ...; a policy's `rules` only with `$expand=rules`), and "Update unifiedRoleManagementPolicyRule"
 * (`PATCH /policies/roleManagementPolicies/{id}/rules/{ruleId}` with the rule's `@odata.type`,
 * RoleManagementPolicy.ReadWrite.Directory, 204). Entra makes one policy per role: none is
 * created or deleted.
 */
function roleManagementPolicyRoutes(graph: GraphContext): Route[] {
  const { state } = graph;
  const reads = [
    'RoleManagementPolicy.Read.Directory',
    'RoleManagementPolicy.ReadWrite.Directory',
    'RoleManagement.Read.Directory',
    'RoleManagement.Read.All',
    'RoleManagement.ReadWrite.Directory',
  ];
  const requireScope = (url: URL) => {
    const filter = url.searchParams.get('$filter') ?? '';
    if (!/scopeId eq '\/'/.test(filter) || !/scopeType eq '(DirectoryRole|Directory)'/.test(filter))
      throw badRequest(
        "The filter on scopeId and scopeType is required: scopeId eq '/' and scopeType eq 'DirectoryRole'.",
      );
  };
  const withRules = (url: URL, policy: GraphObject): GraphObject => {
    if (/(^|,)\s*rules\b/.test(url.searchParams.get('$expand') ?? '')) return policy;
    const { rules: _rules, ...rest } = policy;
    return rest as GraphObject;
  };
  const policy = (id: string): GraphObject => {
    const found = state.collection('roleManagementPolicies').get(id);
    if (!found) throw notFound(id);
    return found;
  };
  return [
    graphRoute(graph, 'GET', '/v1.0/policies/roleManagementPolicies', reads, ({ url }) => {
      requireScope(url);
      const policies = [...state.collection('roleManagementPolicies').values()].map((p) => withRules(url, p));
      return listPage(url, graph.baseUrl, 'policies/roleManagementPolicies', policies);
    }),
    graphRoute(graph, 'GET', '/v1.0/policies/roleManagementPolicies/{id}', reads, ({ url, params }) =>
      entityReply(
        url,
        graph.baseUrl,
        'policies/roleManagementPolicies/$entity',
        withRules(url, policy(params.id)),
      ),
    ),
    graphRoute(graph, 'GET', '/v1.0/policies/roleManagementPolicies/{id}/rules', reads, ({ url, params }) =>
      listPage(
        url,
        graph.baseUrl,
        `policies/roleManagementPolicies('${params.id}')/rules`,
        (policy(params.id).rules ?? []) as GraphObject[],
      ),
    ),
    graphRoute(
      graph,
      'PATCH',
      '/v1.0/policies/roleManagementPolicies/{id}/rules/{ruleId}',
      ['RoleManagementPolicy.ReadWrite.Directory'],
      ({ params, bodyText }) => {
        const current = policy(params.id);
        const rules = (current.rules ?? []) as GraphObject[];
        const at = rules.findIndex((rule) => rule.id === params.ruleId);
        if (at === -1) throw notFound(params.ruleId);
        const body = jsonObjectBody(bodyText);
        if (body['@odata.type'] !== rules[at]['@odata.type'])
          throw badRequest(`The rule's @odata.type is ${String(rules[at]['@odata.type'])}.`);
        const next = [...rules];
        next[at] = { ...rules[at], ...body, id: rules[at].id };
        state.put('roleManagementPolicies', {
          ...current,
          rules: next,
          lastModifiedDateTime: new Date().toISOString(),
        });
        return { status: 204 };
      },
    ),
    graphRoute(graph, 'GET', '/v1.0/policies/roleManagementPolicyAssignments', reads, ({ url }) => {
      requireScope(url);
      return listPage(url, graph.baseUrl, 'policies/roleManagementPolicyAssignments', [
        ...state.collection('roleManagementPolicyAssignments').values(),
      ]);
    }),
  ];
}

/** Graph's refusal of an operation that takes no application permission ("Permissions": Application "Not supported."). */
function noApplicationPermission(): never {
  throw new GraphError(
    403,
    'Authorization_RequestDenied',
    'This operation does not support application permissions.',
  );
}

/**
 * The reads and writes of what restores depend on (docs/resource-types.md), each with the
 * permissions of its Graph API reference pages:
 * - identity providers ("List identityProviders", IdentityProvider.Read.All; "Create
 *   identityProvider", "Update", "Delete": IdentityProvider.ReadWrite.All; a social provider's
 *   `clientSecret` is write-only, answered `****`);
 * - attribute sets and custom security attribute definitions ("List attributeSets", "Create
 *   attributeSet" with its `id`; "Create customSecurityAttributeDefinition": the id is
 *   `<attributeSet>_<name>`, the set must exist; "Update": `description`, `status` and
 *   `usePreDefinedValuesOnly` only; neither is ever deleted, a definition is deactivated,
 *   `status: Deprecated`): CustomSecAttributeDefinition.Read.All / ReadWrite.All;
 * - authentication context class references ("Create authenticationContextClassReference" with
 *   its id `c1`..`c99`, "Update", "Delete": AuthenticationContext.ReadWrite.All, higher
 *   Policy.ReadWrite.ConditionalAccess);
 * - terms of use agreements ("List agreements": Agreement.Read.All; "Create agreement", "Update
 *   agreement", "Delete agreement": application permissions "Not supported.");
 * - the default app management policy ("Get tenantAppManagementPolicy", "Update": Policy.Read.All,
 *   Policy.ReadWrite.ApplicationConfiguration) and app management policies ("Create
 *   appManagementPolicy", "Update", "Delete");
 * - a domain's federation, a user's manager (`$expand=manager` on "List users": graph.routes.ts)
 *   and licences (`assignedLicenses`), role management policies (above).
 */
export function dependencyRoutes(graph: GraphContext): Route[] {
  const agreements = '/v1.0/identityGovernance/termsOfUse/agreements';
  return [
    ...collectionRoutes(
      graph,
      'identity/identityProviders',
      'identityProviders',
      'identity/identityProviders',
      PROVIDERS,
    ),
    ...collectionWrites(graph, {
      path: 'identity/identityProviders',
      collection: 'identityProviders',
      roles: ['IdentityProvider.ReadWrite.All'],
      required: ['@odata.type', 'displayName', 'clientId', 'clientSecret', 'identityProviderType'],
      onWrite: (provider) => ({ ...provider, clientSecret: MASKED_SECRET }),
    }),
    ...collectionRoutes(
      graph,
      'directory/attributeSets',
      'attributeSets',
      'directory/attributeSets',
      ATTRIBUTES,
    ),
    ...collectionWrites(graph, {
      path: 'directory/attributeSets',
      collection: 'attributeSets',
      roles: ['CustomSecAttributeDefinition.ReadWrite.All'],
      required: ['id'],
      key: 'id-from-body',
      onWrite: (set) => ({ description: null, maxAttributesPerSet: null, ...set }),
      noDelete: true,
    }),
    ...collectionRoutes(
      graph,
      'directory/customSecurityAttributeDefinitions',
      'customSecurityAttributeDefinitions',
      'directory/customSecurityAttributeDefinitions',
      ATTRIBUTES,
    ),
    ...collectionWrites(graph, {
      path: 'directory/customSecurityAttributeDefinitions',
      collection: 'customSecurityAttributeDefinitions',
      roles: ['CustomSecAttributeDefinition.ReadWrite.All'],
      required: [
        'attributeSet',
        'isCollection',
        'isSearchable',
        'name',
        'status',
        'type',
        'usePreDefinedValuesOnly',
      ],
      makeKey: (body) => {
        if (!graph.state.collection('attributeSets').has(String(body.attributeSet)))
          throw badRequest(`The attribute set '${String(body.attributeSet)}' does not exist.`);
        return `${String(body.attributeSet)}_${String(body.name)}`;
      },
      onWrite: (definition) => ({ description: null, ...definition }),
      updateRefuses: Object.fromEntries(
        ['attributeSet', 'isCollection', 'isSearchable', 'name', 'type'].map((name) => [
          name,
          `The property '${name}' of a custom security attribute definition cannot be changed.`,
        ]),
      ),
      noDelete: true,
    }),
    ...collectionRoutes(
      graph,
      'identity/conditionalAccess/authenticationContextClassReferences',
      'authenticationContextClassReferences',
      'identity/conditionalAccess/authenticationContextClassReferences',
      CONTEXTS,
    ),
    ...collectionWrites(graph, {
      path: 'identity/conditionalAccess/authenticationContextClassReferences',
      collection: 'authenticationContextClassReferences',
      roles: ['AuthenticationContext.ReadWrite.All', 'Policy.ReadWrite.ConditionalAccess'],
      required: ['id', 'displayName'],
      key: 'id-from-body',
      makeKey: (body) => {
        if (!/^c([1-9]|[1-9][0-9])$/.test(String(body.id)))
          throw badRequest('The id of an authentication context class reference is c1 to c99.');
        return String(body.id);
      },
      onWrite: (context) => ({ description: null, isAvailable: false, ...context }),
    }),
    ...collectionRoutes(
      graph,
      'identityGovernance/termsOfUse/agreements',
      'termsOfUseAgreements',
      'identityGovernance/termsOfUse/agreements',
      AGREEMENTS,
    ),
    graphRoute(graph, 'POST', agreements, ['Agreement.ReadWrite.All'], noApplicationPermission),
    graphRoute(graph, 'PATCH', `${agreements}/{id}`, ['Agreement.ReadWrite.All'], noApplicationPermission),
    graphRoute(graph, 'DELETE', `${agreements}/{id}`, ['Agreement.ReadWrite.All'], noApplicationPermission),
    singletonRoute(
      graph,
      'policies/defaultAppManagementPolicy',
      'defaultAppManagementPolicy',
      'policies/defaultAppManagementPolicy/$entity',
      APP_POLICIES,
    ),
    graphRoute(
      graph,
      'PATCH',
      '/v1.0/policies/defaultAppManagementPolicy',
      ['Policy.ReadWrite.ApplicationConfiguration'],
      ({ bodyText }) => {
        const objects = graph.state.collection('defaultAppManagementPolicy');
        const [current] = objects.values();
        if (!current) throw notFound('defaultAppManagementPolicy');
        const { id: _id, ...changes } = jsonObjectBody(bodyText);
        objects.set(current.id, { ...current, ...changes });
        return { status: 204 };
      },
    ),
    ...collectionRoutes(
      graph,
      'policies/appManagementPolicies',
      'appManagementPolicies',
      'policies/appManagementPolicies',
      APP_POLICIES,
    ),
    ...collectionWrites(graph, {
      path: 'policies/appManagementPolicies',
      collection: 'appManagementPolicies',
      roles: ['Policy.ReadWrite.ApplicationConfiguration'],
      required: ['displayName', 'restrictions'],
      onWrite: (policy) => ({ description: null, isEnabled: true, deletedDateTime: null, ...policy }),
    }),
    ...federationRoutes(graph),
    ...managerRoutes(graph),
    assignLicenseRoute(graph),
    ...roleManagementPolicyRoutes(graph),
    graphRoute(
      graph,
      'POST',
      '/v1.0/servicePrincipals/{id}/addTokenSigningCertificate',
      ['Application.ReadWrite.All'],
      ({ url, params, bodyText }) => {
        const sp = graph.state.collection('servicePrincipals').get(params.id);
        if (!sp) throw notFound(params.id);
        const certificate = addTokenSigningCertificate(graph.state, sp, jsonObjectBody(bodyText));
        return entityReply(url, graph.baseUrl, 'microsoft.graph.selfSignedCertificate', certificate);
      },
    ),
  ];
}
