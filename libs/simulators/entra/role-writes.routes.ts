import { randomUUID } from 'node:crypto';

import type { Route } from '@libs/simulators/kit/http/router.js';

import { requireMembers } from './application-writes.routes.js';
import { jsonObjectBody } from './json-body.js';
import { badRequest, GraphError, notFound } from './graph-error.js';
import { type GraphContext, graphRoute } from './graph-route.js';
import { entityReply } from './odata-list.js';
import { assertPolicyAllows, removeActiveGrant, roleAssignment, sameGrant } from './pim.js';
import type { Collection, GraphObject } from './tenant-state.js';

/**
 * "Create unifiedRoleDefinition", "Update unifiedRoleDefinition", "Delete unifiedRoleDefinition",
 * "Delete unifiedRoleAssignment": RoleManagement.ReadWrite.Directory; "Create
 * roleEligibilityScheduleRequests": RoleEligibilitySchedule.ReadWrite.Directory, then
 * RoleManagement.ReadWrite.Directory; "Create roleAssignmentScheduleRequests":
 * RoleAssignmentSchedule.ReadWrite.Directory, then RoleManagement.ReadWrite.Directory.
 */
const ROLE_MANAGEMENT = ['RoleManagement.ReadWrite.Directory'];
const BASE = '/v1.0/roleManagement/directory';

/** A PIM schedule request kind: its entity set, the schedules it writes, and their permissions. */
interface ScheduleKind {
  requests: string;
  schedules: Collection;
  roles: readonly string[];
  /** members only schedules of this kind have (an assignment's `assignmentType`) */
  extra: Record<string, unknown>;
  /** the level of the role management policy rules that check its requests (pim.ts) */
  level: 'Eligibility' | 'Assignment';
}

const SCHEDULE_KINDS: readonly ScheduleKind[] = [
  {
    requests: 'roleEligibilityScheduleRequests',
    schedules: 'roleEligibilitySchedules',
    roles: ['RoleEligibilitySchedule.ReadWrite.Directory', ...ROLE_MANAGEMENT],
    extra: {},
    level: 'Eligibility',
  },
  {
    requests: 'roleAssignmentScheduleRequests',
    schedules: 'roleAssignmentSchedules',
    roles: ['RoleAssignmentSchedule.ReadWrite.Directory', ...ROLE_MANAGEMENT],
    extra: { assignmentType: 'Assigned' },
    level: 'Assignment',
  },
];

/** The same principal, role and scope: what a schedule request addresses. */
const sameTarget = sameGrant;

/**
 * The role management writes a restore makes, as Microsoft Graph v1.0 answers them:
 * - `POST /roleManagement/directory/roleDefinitions` ("Create unifiedRoleDefinition":
 *   `displayName`, `rolePermissions`, `isEnabled` required; a custom role, its `templateId` its
 *   id; the display name unique), `PATCH .../{id}` (204) and `DELETE .../{id}` (204, its
 *   assignments and schedules deleted with it); built-in roles cannot be changed nor deleted (400);
 * - `DELETE /roleManagement/directory/roleAssignments/{id}` ("Delete unifiedRoleAssignment": 204);
 * - `POST /roleManagement/directory/roleEligibilityScheduleRequests` and
 *   `.../roleAssignmentScheduleRequests` ("Create roleEligibilityScheduleRequests",
 *   "Create roleAssignmentScheduleRequests": `action`, `principalId`, `roleDefinitionId`,
 *   `directoryScopeId` required; 201 with the request, `status: Provisioned`): `adminAssign`
 *   creates the schedule (400 `RoleAssignmentExists` when the principal has the role at that scope),
 *   `adminUpdate` changes its `scheduleInfo`, `adminRemove` deletes it (400
 *   `RoleAssignmentDoesNotExist` when there is none); an active assignment is a role assignment
 *   too, made and removed with its schedule, and `adminAssign` and `adminUpdate` are checked
 *   against the role's management policy (pim.ts); a custom role created here has none (the
 *   simulator seeds the policies of the tenant's roles only).
 */
export function roleWriteRoutes(graph: GraphContext): Route[] {
  const { state } = graph;
  const definitions = state.collection('roleDefinitions');
  const custom = (id: string): GraphObject => {
    const role = definitions.get(id);
    if (!role) throw notFound(id);
    if (role.isBuiltIn === true) throw badRequest('Built-in role definitions cannot be modified or deleted.');
    return role;
  };
  const removeFrom = (collection: Collection, id: string): void => {
    state.collection(collection).delete(id);
    state.changes.object(collection, id, 'deleted');
  };
  return [
    graphRoute(graph, 'POST', `${BASE}/roleDefinitions`, ROLE_MANAGEMENT, ({ url, bodyText }) => {
      const { id: _id, isBuiltIn: _builtIn, ...body } = jsonObjectBody(bodyText);
      requireMembers(body, ['displayName', 'rolePermissions', 'isEnabled']);
      if ([...definitions.values()].some(({ displayName }) => displayName === body.displayName))
        throw badRequest(
          `A role definition with the display name '${String(body.displayName)}' already exists.`,
        );
      const id = randomUUID();
      const role: GraphObject = {
        id,
        templateId: id,
        description: null,
        resourceScopes: ['/'],
        version: null,
        ...body,
        isBuiltIn: false,
      };
      state.create('roleDefinitions', role);
      const reply = entityReply(url, graph.baseUrl, 'roleManagement/directory/roleDefinitions/$entity', role);
      return { ...reply, status: 201 };
    }),
    graphRoute(graph, 'PATCH', `${BASE}/roleDefinitions/{id}`, ROLE_MANAGEMENT, ({ params, bodyText }) => {
      custom(params.id);
      const { id: _id, isBuiltIn: _builtIn, templateId: _template, ...changes } = jsonObjectBody(bodyText);
      state.update('roleDefinitions', params.id, changes);
      return { status: 204 };
    }),
    graphRoute(graph, 'DELETE', `${BASE}/roleDefinitions/{id}`, ROLE_MANAGEMENT, ({ params }) => {
      custom(params.id);
      removeFrom('roleDefinitions', params.id);
      // "When the role definition is removed, all the associated role assignments are deleted"
      // (CLI for Microsoft 365, `entra roledefinition remove`; unlike Azure RBAC, which refuses).
      for (const collection of [
        'roleAssignments',
        'roleEligibilitySchedules',
        'roleAssignmentSchedules',
      ] as const)
        for (const [id, grant] of state.collection(collection))
          if (grant.roleDefinitionId === params.id) removeFrom(collection, id);
      return { status: 204 };
    }),
    graphRoute(graph, 'DELETE', `${BASE}/roleAssignments/{id}`, ROLE_MANAGEMENT, ({ params }) => {
      const assignment = state.collection('roleAssignments').get(params.id);
      if (!assignment) throw notFound(params.id);
      removeActiveGrant(state, assignment);
      return { status: 204 };
    }),
    ...SCHEDULE_KINDS.map((kind) =>
      graphRoute(graph, 'POST', `${BASE}/${kind.requests}`, kind.roles, ({ url, bodyText }) => {
        const body = jsonObjectBody(bodyText);
        requireMembers(body, ['action', 'principalId', 'roleDefinitionId', 'directoryScopeId']);
        if (!definitions.has(String(body.roleDefinitionId)))
          throw badRequest(`The role definition '${String(body.roleDefinitionId)}' does not exist.`);
        if (!state.directoryObjectType(String(body.principalId))) throw notFound(String(body.principalId));
        const schedules = state.collection(kind.schedules);
        const existing = [...schedules.values()].find((schedule) => sameTarget(schedule, body));
        const now = new Date().toISOString();
        const requestId = randomUUID();
        const scheduleInfo = body.scheduleInfo ?? {
          startDateTime: now,
          recurrence: null,
          expiration: { type: 'noExpiration', endDateTime: null, duration: null },
        };
        switch (body.action) {
          case 'adminAssign':
            if (existing)
              throw new GraphError(400, 'RoleAssignmentExists', 'The Role assignment already exists.');
            assertPolicyAllows(state, kind.level, { ...body, scheduleInfo });
            if (kind.level === 'Assignment') state.create('roleAssignments', roleAssignment(body));
            state.create(kind.schedules, {
              id: requestId,
              principalId: body.principalId,
              roleDefinitionId: body.roleDefinitionId,
              directoryScopeId: body.directoryScopeId,
              appScopeId: body.appScopeId ?? null,
              createdUsing: requestId,
              createdDateTime: now,
              modifiedDateTime: null,
              status: 'Provisioned',
              ...kind.extra,
              memberType: 'Direct',
              scheduleInfo,
            });
            break;
          case 'adminUpdate':
          case 'adminRemove':
            if (!existing)
              throw new GraphError(400, 'RoleAssignmentDoesNotExist', 'The Role assignment does not exist.');
            if (body.action === 'adminRemove') {
              if (kind.level === 'Assignment') removeActiveGrant(state, existing);
              else removeFrom(kind.schedules, existing.id);
            } else {
              assertPolicyAllows(state, kind.level, { ...body, scheduleInfo });
              state.update(kind.schedules, existing.id, { scheduleInfo, modifiedDateTime: now });
            }
            break;
          default:
            throw badRequest(`The action '${String(body.action)}' is not supported.`);
        }
        const request = {
          id: requestId,
          action: body.action,
          principalId: body.principalId,
          roleDefinitionId: body.roleDefinitionId,
          directoryScopeId: body.directoryScopeId,
          appScopeId: body.appScopeId ?? null,
          justification: body.justification ?? null,
          scheduleInfo,
          status: body.action === 'adminRemove' ? 'Revoked' : 'Provisioned',
          createdDateTime: now,
          completedDateTime: now,
          isValidationOnly: false,
          targetScheduleId: existing?.id ?? requestId,
        };
        const reply = entityReply(url, graph.baseUrl, `roleManagement/directory/${kind.requests}/$entity`, {
          ...request,
        });
        return { ...reply, status: 201 };
      }),
    ),
  ];
}
