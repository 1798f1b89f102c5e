import { json, type Reply } from '@libs/simulators/kit/http/reply.js';
import type { Route } from '@libs/simulators/kit/http/router.js';

import { deltaPage } from './delta-query.js';
import { badRequest, GraphError, notFound } from './graph-error.js';
import { type GraphContext, graphRoute } from './graph-route.js';
import { collectionRoutes, singletonRoute } from './graph.routes.js';
import { entityReply, listPage } from './odata-list.js';
import { assignmentSchedule, roleAssignment, sameGrant } from './pim.js';
import type { ChildCollection, Collection, GraphObject } from './tenant-state.js';

/** Directory.Read.All and Directory.ReadWrite.All, which most directory reads also accept. */
const DIRECTORY = ['Directory.Read.All', 'Directory.ReadWrite.All'];
const APPLICATIONS = ['Application.Read.All', 'Application.ReadWrite.All', ...DIRECTORY];
const ROLES = [
  'RoleManagement.Read.Directory',
  'RoleManagement.Read.All',
  'RoleManagement.ReadWrite.Directory',
  ...DIRECTORY,
];
const GROUPS = ['GroupMember.Read.All', 'Group.Read.All', 'Group.ReadWrite.All', ...DIRECTORY];
const UNITS = ['AdministrativeUnit.Read.All', 'AdministrativeUnit.ReadWrite.All', ...DIRECTORY];
const APPLICATION_POLICIES = ['Policy.Read.All', 'Policy.ReadWrite.ApplicationConfiguration'];
const CROSS_TENANT = ['Policy.Read.All', 'Policy.ReadWrite.CrossTenantAccess'];

/**
 * A top-level read: `GET /v1.0/<path>` (and `/{id}` for a collection), the collection it serves,
 * and the application permissions its reference page lists (least privileged first).
 */
interface TopLevel {
  path: string;
  collection: Collection;
  singleton?: true;
  roles: readonly string[];
  /**
   * The permissions of the collection's delta function (`GET /v1.0/<path>/delta`), when the v1.0
   * CSDL binds one to it (`Function Name="delta"` on `Collection(graph.application)`...).
   */
  delta?: readonly string[];
}

/**
 * A read under a parent object: `GET /v1.0/<parentPath>/{id}/<segment>`. Links answer the
 * directory objects they point to, with `@odata.type` (Graph lists members and owners as
 * `directoryObject`s); the others their objects; `single` is one object (404 when none).
 */
interface UnderParent {
  parentPath: string;
  parent: Collection;
  segment: string;
  children: ChildCollection;
  kind: 'links' | 'objects' | 'single';
  context: string;
  roles: readonly string[];
}

/**
 * The Graph v1.0 reads of the Entra types beyond users and groups (docs/resource-types.md), each with the
 * application permissions of its API reference page ("Permissions", application row, least privileged then
 * higher): application-list and its owners, federatedIdentityCredentials, extensionProperty
 * lists; serviceprincipal-list, serviceprincipal-list-approleassignedto; oauth2permissiongrant-list;
 * authenticationstrengthroot-list-policies; identitysecuritydefaultsenforcementpolicy-get;
 * adminconsentrequestpolicy-get; permissiongrantpolicy-list; tokenlifetimepolicy-list,
 * tokenissuancepolicy-list, claimsmappingpolicy-list, homerealmdiscoverypolicy-list;
 * rbacapplication-list-roledefinitions, -roleassignments, -roleeligibilityschedules,
 * -roleassignmentschedules; directory-list-administrativeunits, administrativeunit-list-members,
 * administrativeunit-list-scopedrolemembers; crosstenantaccesspolicy-get, its default and
 * partners; grouplifecyclepolicy-list; group-list-settings (tenant-wide `groupSettings`);
 * group-list-owners; organizationalbranding-get.
 */
const TOP_LEVEL: readonly TopLevel[] = [
  {
    path: 'groupSettings',
    collection: 'groupSettings',
    roles: [
      'GroupSettings.Read.All',
      'GroupSettings.ReadWrite.All',
      'Group.Read.All',
      'Group.ReadWrite.All',
      ...DIRECTORY,
    ],
  },
  { path: 'groupLifecyclePolicies', collection: 'groupLifecyclePolicies', roles: DIRECTORY },
  // administrativeunit-delta, application-delta, serviceprincipal-delta: as their lists
  { path: 'directory/administrativeUnits', collection: 'administrativeUnits', roles: UNITS, delta: UNITS },
  { path: 'applications', collection: 'applications', roles: APPLICATIONS, delta: APPLICATIONS },
  { path: 'servicePrincipals', collection: 'servicePrincipals', roles: APPLICATIONS, delta: APPLICATIONS },
  {
    path: 'oauth2PermissionGrants',
    collection: 'oauth2PermissionGrants',
    roles: ['DelegatedPermissionGrant.Read.All', 'DelegatedPermissionGrant.ReadWrite.All', ...DIRECTORY],
    // oauth2permissiongrant-delta: Directory.Read.All, then DelegatedPermissionGrant.ReadWrite.All
    // and Directory.ReadWrite.All (not DelegatedPermissionGrant.Read.All, unlike the list)
    delta: ['Directory.Read.All', 'DelegatedPermissionGrant.ReadWrite.All', 'Directory.ReadWrite.All'],
  },
  { path: 'roleManagement/directory/roleAssignments', collection: 'roleAssignments', roles: ROLES },
  {
    path: 'roleManagement/directory/roleEligibilitySchedules',
    collection: 'roleEligibilitySchedules',
    roles: [
      'RoleEligibilitySchedule.Read.Directory',
      'RoleEligibilitySchedule.ReadWrite.Directory',
      ...ROLES,
    ],
  },
  {
    path: 'roleManagement/directory/roleAssignmentSchedules',
    collection: 'roleAssignmentSchedules',
    roles: ['RoleAssignmentSchedule.Read.Directory', 'RoleAssignmentSchedule.ReadWrite.Directory', ...ROLES],
  },
  {
    path: 'policies/authenticationStrengthPolicies',
    collection: 'authenticationStrengthPolicies',
    roles: ['Policy.Read.All', 'Policy.ReadWrite.ConditionalAccess', 'Policy.ReadWrite.AuthenticationMethod'],
  },
  {
    path: 'policies/identitySecurityDefaultsEnforcementPolicy',
    collection: 'identitySecurityDefaultsEnforcementPolicy',
    singleton: true,
    roles: ['Policy.Read.All', 'Policy.ReadWrite.SecurityDefaults'],
  },
  {
    path: 'policies/adminConsentRequestPolicy',
    collection: 'adminConsentRequestPolicy',
    singleton: true,
    roles: ['Policy.Read.All', 'Policy.ReadWrite.ConsentRequest', ...DIRECTORY],
  },
  {
    path: 'policies/permissionGrantPolicies',
    collection: 'permissionGrantPolicies',
    roles: ['Policy.Read.PermissionGrant', 'Policy.ReadWrite.PermissionGrant'],
  },
  {
    path: 'policies/tokenLifetimePolicies',
    collection: 'tokenLifetimePolicies',
    roles: APPLICATION_POLICIES,
  },
  {
    path: 'policies/tokenIssuancePolicies',
    collection: 'tokenIssuancePolicies',
    roles: APPLICATION_POLICIES,
  },
  {
    path: 'policies/claimsMappingPolicies',
    collection: 'claimsMappingPolicies',
    roles: APPLICATION_POLICIES,
  },
  {
    path: 'policies/homeRealmDiscoveryPolicies',
    collection: 'homeRealmDiscoveryPolicies',
    roles: APPLICATION_POLICIES,
  },
  {
    path: 'policies/crossTenantAccessPolicy',
    collection: 'crossTenantAccessPolicy',
    singleton: true,
    roles: CROSS_TENANT,
  },
  {
    path: 'policies/crossTenantAccessPolicy/default',
    collection: 'crossTenantAccessPolicyDefault',
    singleton: true,
    roles: CROSS_TENANT,
  },
];

const UNDER_PARENT: readonly UnderParent[] = [
  {
    parentPath: 'groups',
    parent: 'groups',
    segment: 'owners',
    children: 'groupOwners',
    kind: 'links',
    context: 'directoryObjects',
    roles: GROUPS,
  },
  {
    parentPath: 'directory/administrativeUnits',
    parent: 'administrativeUnits',
    segment: 'members',
    children: 'administrativeUnitMembers',
    kind: 'links',
    context: 'directoryObjects',
    roles: UNITS,
  },
  {
    parentPath: 'directory/administrativeUnits',
    parent: 'administrativeUnits',
    segment: 'scopedRoleMembers',
    children: 'scopedRoleMembers',
    kind: 'objects',
    context: "directory/administrativeUnits('{id}')/scopedRoleMembers",
    roles: ROLES,
  },
  {
    parentPath: 'applications',
    parent: 'applications',
    segment: 'owners',
    children: 'applicationOwners',
    kind: 'links',
    context: 'directoryObjects',
    roles: APPLICATIONS,
  },
  {
    parentPath: 'applications',
    parent: 'applications',
    segment: 'federatedIdentityCredentials',
    children: 'federatedIdentityCredentials',
    kind: 'objects',
    context: "applications('{id}')/federatedIdentityCredentials",
    roles: APPLICATIONS,
  },
  {
    parentPath: 'applications',
    parent: 'applications',
    segment: 'extensionProperties',
    children: 'extensionProperties',
    kind: 'objects',
    context: "applications('{id}')/extensionProperties",
    roles: APPLICATIONS,
  },
  {
    parentPath: 'servicePrincipals',
    parent: 'servicePrincipals',
    segment: 'appRoleAssignedTo',
    children: 'appRoleAssignedTo',
    kind: 'objects',
    context: "servicePrincipals('{id}')/appRoleAssignedTo",
    roles: ['AppRoleAssignment.ReadWrite.All', ...APPLICATIONS],
  },
  {
    parentPath: 'organization',
    parent: 'organization',
    segment: 'branding',
    children: 'branding',
    kind: 'single',
    context: "organization('{id}')/branding/$entity",
    roles: [
      'OrganizationalBranding.Read.All',
      'OrganizationalBranding.ReadWrite.All',
      'Organization.Read.All',
      'Organization.ReadWrite.All',
    ],
  },
];

/**
 * `isBuiltIn eq true|false`, the `$filter` on role definitions the connector sends
 * (rbacapplication-list-roledefinitions supports `$filter`); any other is refused as Graph
 * refuses a filter it does not support.
 */
function builtInFilter(filter: string | null): ((role: GraphObject) => boolean) | undefined {
  if (filter === null) return undefined;
  const match = /^isBuiltIn eq (true|false)$/.exec(filter.trim());
  if (!match) throw badRequest(`Invalid filter clause: the filter '${filter}' is not supported.`);
  return (role) => role.isBuiltIn === (match[1] === 'true');
}

/**
 * `POST /roleManagement/directory/roleAssignments` ("Create unifiedRoleAssignment": 201 Created
 * with the assignment): `principalId`, `roleDefinitionId` and `directoryScopeId` (or
 * `appScopeId`) required; the role must exist. Graph's ids are its role's and principal's ids
 * encoded with a suffix (`lAPpYvVp...-1` in the real tenant); this one is made the same way. A
 * grant the principal holds already is refused (400 `RoleAssignmentExists`), and the new
 * assignment is listed as an assignment schedule of its id too (pim.ts).
 * @throws GraphError 400 for a body without them or an unknown role
 */
function createRoleAssignment(graph: GraphContext, bodyText: string): Reply {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(bodyText) as Record<string, unknown>;
  } catch {
    throw badRequest('Unable to read JSON request payload.');
  }
  const { principalId, roleDefinitionId } = body;
  const directoryScopeId = body.directoryScopeId ?? (body.appScopeId === undefined ? undefined : null);
  if (
    typeof principalId !== 'string' ||
    typeof roleDefinitionId !== 'string' ||
    directoryScopeId === undefined
  )
    throw badRequest('principalId, roleDefinitionId and directoryScopeId or appScopeId are required.');
  if (!graph.state.collection('roleDefinitions').has(roleDefinitionId))
    throw badRequest(`The role definition '${roleDefinitionId}' does not exist.`);
  const assignment: GraphObject = {
    ...roleAssignment({ principalId, roleDefinitionId, directoryScopeId, appScopeId: body.appScopeId }),
    directoryScopeId,
  };
  if ([...graph.state.collection('roleAssignments').values()].some((live) => sameGrant(live, assignment)))
    throw new GraphError(400, 'RoleAssignmentExists', 'The Role assignment already exists.');
  graph.state.put('roleAssignments', assignment);
  // An active assignment made directly is listed as a schedule of the same id too (pim.ts).
  graph.state.put(
    'roleAssignmentSchedules',
    assignmentSchedule(assignment.id, assignment, {
      createdUsing: assignment.id,
      assignmentType: 'Assigned',
    }),
  );
  return json(201, {
    '@odata.context': `${graph.baseUrl}/v1.0/$metadata#roleManagement/directory/roleAssignments/$entity`,
    ...assignment,
  });
}

/**
 * The reads of TOP_LEVEL and UNDER_PARENT, role definitions with their `$filter`, one method
 * configuration, and two writes the tenant's admins make: a role assignment created, the
 * organization's branding deleted.
 */
export function directoryRoutes(graph: GraphContext): Route[] {
  const { state } = graph;
  const routes: Route[] = [];
  for (const read of TOP_LEVEL)
    if (read.singleton)
      routes.push(singletonRoute(graph, read.path, read.collection, `${read.path}/$entity`, read.roles));
    else routes.push(...collectionRoutes(graph, read.path, read.collection, read.path, read.roles));
  for (const { path, collection, delta } of TOP_LEVEL)
    if (delta)
      routes.push(
        graphRoute(graph, 'GET', `/v1.0/${path}/delta`, delta, ({ url }) =>
          deltaPage(state, graph.baseUrl, { collection, context: path }, url),
        ),
      );
  for (const read of UNDER_PARENT)
    routes.push(
      graphRoute(
        graph,
        'GET',
        `/v1.0/${read.parentPath}/{id}/${read.segment}`,
        read.roles,
        ({ url, params }) => {
          if (!state.collection(read.parent).has(params.id)) throw notFound(params.id);
          const children = state.childrenOf(read.children, params.id);
          const context = read.context.replace('{id}', params.id);
          if (read.kind === 'single') {
            if (!children[0]) throw notFound(read.segment);
            return entityReply(url, graph.baseUrl, context, children[0]);
          }
          const items =
            read.kind === 'links' ? children.flatMap(({ id }) => state.directoryObject(id) ?? []) : children;
          return listPage(url, graph.baseUrl, context, items);
        },
      ),
    );
  const roleDefinitions = state.collection('roleDefinitions');
  routes.push(
    // organizationalbranding-delete: 204; the organization then has no branding (GET answers 404)
    graphRoute(
      graph,
      'DELETE',
      '/v1.0/organization/{id}/branding',
      ['OrganizationalBranding.ReadWrite.All'],
      ({ params }) => {
        if (state.childrenOf('branding', params.id).length === 0) throw notFound(params.id);
        state.children.get('branding')!.delete(params.id);
        return { status: 204 };
      },
    ),
    graphRoute(
      graph,
      'POST',
      '/v1.0/roleManagement/directory/roleAssignments',
      ['RoleManagement.ReadWrite.Directory'],
      ({ bodyText }) => createRoleAssignment(graph, bodyText),
    ),
  );
  routes.push(
    graphRoute(graph, 'GET', '/v1.0/roleManagement/directory/roleDefinitions', ROLES, ({ url }) => {
      const keep = builtInFilter(url.searchParams.get('$filter')) ?? (() => true);
      return listPage(
        url,
        graph.baseUrl,
        'roleManagement/directory/roleDefinitions',
        [...roleDefinitions.values()].filter(keep),
      );
    }),
    graphRoute(
      graph,
      'GET',
      '/v1.0/roleManagement/directory/roleDefinitions/{id}',
      ROLES,
      ({ url, params }) => {
        const role = roleDefinitions.get(params.id);
        if (!role) throw notFound(params.id);
        return entityReply(url, graph.baseUrl, 'roleManagement/directory/roleDefinitions/$entity', role);
      },
    ),
    // crosstenantaccesspolicy-list-partners: a partner is keyed by its tenant id
    ...collectionRoutes(
      graph,
      'policies/crossTenantAccessPolicy/partners',
      'crossTenantAccessPolicyPartners',
      'policies/crossTenantAccessPolicy/partners',
      CROSS_TENANT,
    ),
    // authenticationmethodconfiguration-get: one configuration of the authentication methods policy
    graphRoute(
      graph,
      'GET',
      '/v1.0/policies/authenticationMethodsPolicy/authenticationMethodConfigurations/{id}',
      ['Policy.Read.AuthenticationMethod', 'Policy.ReadWrite.AuthenticationMethod'],
      ({ url, params }) => {
        const [policy] = state.collection('authenticationMethodsPolicy').values();
        const configurations = (policy?.authenticationMethodConfigurations ?? []) as GraphObject[];
        const configuration = configurations.find((c) => c.id.toLowerCase() === params.id.toLowerCase());
        if (!configuration) throw notFound(params.id);
        return entityReply(
          url,
          graph.baseUrl,
          'policies/authenticationMethodsPolicy/authenticationMethodConfigurations/$entity',
          configuration,
        );
      },
    ),
  );
  return routes;
}
