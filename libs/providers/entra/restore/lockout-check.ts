import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { GraphApiClient, GraphObject } from '@libs/providers/entra/graph-api-client.js';

/** The Global Administrator role's template id, also its definition id (Microsoft Entra built-in roles). */
export const GLOBAL_ADMINISTRATOR_ROLE = '62e90394-69f5-4237-9190-012177145e10';

/** A Global Administrator who can sign in, and the groups (of those a policy names) they belong to. */
export interface SignInAdmin {
  id: string;
  groups: ReadonlySet<string>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function isEmpty(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    (Array.isArray(value) && value.length === 0) ||
    (isObject(value) && Object.values(value).every(isEmpty))
  );
}

/**
 * Whether the policy's conditions apply to every sign-in of its users and applications: client
 * app types absent or `all`, and no risk, platform, device, authentication flow, insider risk or
 * location condition (a location condition including `All` and excluding none is no condition).
 * A block narrowed by any of them (legacy clients only, risky sign-ins only) leaves admins a way in.
 */
function appliesToEverySignIn(conditions: Record<string, unknown>): boolean {
  const clients = strings(conditions.clientAppTypes);
  if (clients.length > 0 && !clients.includes('all')) return false;
  const locations = isObject(conditions.locations) ? conditions.locations : {};
  const allLocations =
    isEmpty(locations) ||
    (strings(locations.includeLocations).includes('All') && strings(locations.excludeLocations).length === 0);
  if (!allLocations) return false;
  return [
    'userRiskLevels',
    'signInRiskLevels',
    'servicePrincipalRiskLevels',
    'platforms',
    'devices',
    'authenticationFlows',
    'insiderRiskLevels',
    'clientApplications',
  ].every((name) => isEmpty(conditions[name]));
}

/** Group ids a policy's user condition names (included or excluded): their members are read. */
export function groupsNamed(policy: GraphObject): string[] {
  const conditions = isObject(policy.conditions) ? policy.conditions : {};
  const users = isObject(conditions.users) ? conditions.users : {};
  return [...new Set([...strings(users.includeGroups), ...strings(users.excludeGroups)])];
}

/**
 * Whether `policy`, enforced, would block every one of `admins` from signing in: its grant is
 * `block`, it applies to all applications (`includeApplications` holds `All`) on every sign-in
 * (appliesToEverySignIn), and its user condition includes each admin (all users, the user, the
 * Global Administrator role, or one of their groups) and excludes none (by user, role or group).
 * With no admin who can sign in, nobody is locked out by it: false.
 */
export function blocksEveryAdmin(policy: GraphObject, admins: readonly SignInAdmin[]): boolean {
  if (admins.length === 0) return false;
  const grant = isObject(policy.grantControls) ? policy.grantControls : {};
  if (!strings(grant.builtInControls).includes('block')) return false;
  const conditions = isObject(policy.conditions) ? policy.conditions : {};
  const applications = isObject(conditions.applications) ? conditions.applications : {};
  if (!strings(applications.includeApplications).includes('All')) return false;
  if (!appliesToEverySignIn(conditions)) return false;
  const users = isObject(conditions.users) ? conditions.users : {};
  const named = (admin: SignInAdmin, prefix: 'include' | 'exclude', all: boolean): boolean =>
    (all && strings(users[`${prefix}Users`]).includes('All')) ||
    strings(users[`${prefix}Users`]).includes(admin.id) ||
    strings(users[`${prefix}Roles`]).includes(GLOBAL_ADMINISTRATOR_ROLE) ||
    strings(users[`${prefix}Groups`]).some((group) => admin.groups.has(group));
  return admins.every((admin) => named(admin, 'include', true) && !named(admin, 'exclude', false));
}

/**
 * The Global Administrators who can sign in: users assigned the role
 * (`GET /v1.0/roleManagement/directory/roleAssignments?$filter=roleDefinitionId eq '<role>'`,
 * "List unifiedRoleAssignments", RoleManagement.Read.Directory; filtered here too) whose account
 * is enabled (`GET /v1.0/users/{id}?$select=id,accountEnabled`; a principal that is no user, a
 * role-assignable group or a service principal, is not counted), with their membership in
 * `groups` (`GET /v1.0/groups/{id}/members?$select=id`, GroupMember.Read.All).
 * @throws as GraphApiClient's reads
 */
export async function signInAdmins(
  graph: GraphApiClient,
  groups: readonly string[],
  signal?: AbortSignal,
): Promise<SignInAdmin[]> {
  const principals = new Set<string>();
  for await (const page of graph.pages({
    template: '/v1.0/roleManagement/directory/roleAssignments',
    query: { $filter: `roleDefinitionId eq '${GLOBAL_ADMINISTRATOR_ROLE}'` },
    signal,
  }))
    for (const assignment of page)
      if (
        assignment.roleDefinitionId === GLOBAL_ADMINISTRATOR_ROLE &&
        typeof assignment.principalId === 'string'
      )
        principals.add(assignment.principalId);
  const members = new Map<string, Set<string>>();
  for (const group of groups) {
    const ids = new Set<string>();
    try {
      for await (const page of graph.pages({
        template: '/v1.0/groups/{id}/members',
        params: { id: group },
        select: ['id'],
        signal,
      }))
        for (const member of page) ids.add(String(member.id));
    } catch (error) {
      // a group deleted since the policy named it has no members
      if (!(error instanceof ProviderRequestError && error.status === 404)) throw error;
    }
    members.set(group, ids);
  }
  const admins: SignInAdmin[] = [];
  for (const id of principals) {
    const user = await graph.objectIfFound({
      template: '/v1.0/users/{id}',
      params: { id },
      select: ['id', 'accountEnabled'],
      signal,
    });
    if (user?.accountEnabled !== true) continue;
    admins.push({ id, groups: new Set(groups.filter((group) => members.get(group)!.has(id))) });
  }
  return admins;
}

/** The state a restore writes a policy with, and why when it is not the backup's. */
export interface GuardedState {
  state: unknown;
  notes: string[];
}

/**
 * The lockout guard (docs/restore.md "Prune and the lockout guard"): a conditional access policy a restore
 * would write `enabled` that would block every Global Administrator who can sign in is written
 * `enabledForReportingButNotEnforced` instead, with a note, unless `enforce` is set.
 * @throws as signInAdmins
 */
export async function guardedState(
  graph: GraphApiClient,
  policy: GraphObject,
  enforce: boolean,
  signal?: AbortSignal,
): Promise<GuardedState> {
  if (policy.state !== 'enabled' || enforce) return { state: policy.state, notes: [] };
  const admins = await signInAdmins(graph, groupsNamed(policy), signal);
  if (!blocksEveryAdmin(policy, admins)) return { state: policy.state, notes: [] };
  return {
    state: 'enabledForReportingButNotEnforced',
    notes: [
      `Written report-only (enabledForReportingButNotEnforced), not enabled: it blocks all ${admins.length} Global Administrator(s) who can sign in. Check it, then enable it in the Entra admin center, or restore again with enforce.`,
    ],
  };
}
