import { GraphError } from './graph-error.js';
import type { GraphContext } from './graph-route.js';

/**
 * Properties whose change on a user is a sensitive action ("Update user": "sensitive user
 * properties, such as accountEnabled, mobilePhone, and otherMails"; "Privileged roles and
 * permissions in Microsoft Entra ID", Who can perform sensitive actions: disable or enable,
 * delete, reset password, update businessPhones, mobilePhone, otherMails, userPrincipalName).
 */
const SENSITIVE_PROPERTIES = [
  'accountEnabled',
  'businessPhones',
  'mobilePhone',
  'otherMails',
  'passwordProfile',
  'passwordPolicies',
  'userPrincipalName',
];

const GLOBAL_ADMINISTRATOR = '62e90394-69f5-4237-9190-012177145e10';
const PRIVILEGED_AUTHENTICATION_ADMINISTRATOR = '7be44c8a-adaf-4e2a-84d6-ab2649e08a13';
const USER_ADMINISTRATOR = 'fe930be7-5e62-47db-91af-98c3a49a38b1';

/**
 * The administrator roles (template ids) whose holders a User Administrator may also act on
 * ("Who can perform sensitive actions": Helpdesk, Password and User Administrators, Directory
 * Readers, Global Reader, Guest Inviter, Message Center Reader, Reports Reader); a holder of any
 * other role (Global Administrator, Privileged Role Administrator, Security Administrator...)
 * only a Privileged Authentication Administrator or a Global Administrator.
 */
const USER_ADMINISTRATOR_TARGETS = new Set([
  '729827e3-9c14-49f7-bb1b-9608f156bbb8', // Helpdesk Administrator
  '966707d0-3269-4727-9be2-8c3a10f19b9d', // Password Administrator
  USER_ADMINISTRATOR,
  '88d8e3e3-8f55-4a1e-953a-9b9898b8876b', // Directory Readers
  'f2ef992c-3afb-46b9-b7cf-a126ee74c451', // Global Reader
  '95e79109-95c0-4d8e-aee3-d01accf2d47b', // Guest Inviter
  '790c1fb9-7f7d-4f88-86a1-ef1f95c05c1b', // Message Center Reader
  '4a5d8f65-41da-4de4-8968-e035b65339cf', // Reports Reader
]);

/**
 * Refuses an app-only sensitive action on a user who holds an administrator role unless the
 * calling app itself holds a role that may act on it ("Update user", "Delete user": "In app-only
 * scenarios, the app must be assigned a higher privileged administrator role as indicated in Who
 * can perform sensitive actions"; learn.microsoft.com/graph/api/user-update,
 * learn.microsoft.com/entra/identity/role-based-access-control/privileged-roles-permissions):
 * Global Administrator or Privileged Authentication Administrator for any administrator, User
 * Administrator too for the roles above. The app's roles are the tenant-wide role assignments of
 * its service principal (the one whose `appId` is the token's), as an admin grants them.
 * @param body the PATCH's members, or undefined for a DELETE (always sensitive)
 * @throws GraphError 403 `Authorization_RequestDenied` when the app may not
 */
export function requireSensitiveActionAllowed(
  graph: GraphContext,
  authorization: string | undefined,
  userId: string,
  body?: Record<string, unknown>,
): void {
  if (body && !SENSITIVE_PROPERTIES.some((name) => name in body)) return;
  // The table names built-in roles; a custom role's holder is not a target of this rule.
  const custom = new Set(
    [...graph.state.collection('roleDefinitions').values()]
      .filter((definition) => definition.isBuiltIn === false)
      .map((definition) => definition.id),
  );
  const targetRoles = rolesOf(graph, userId).filter((role) => !custom.has(role));
  if (targetRoles.length === 0) return;
  const { appId } = graph.apps.verify(authorization);
  const sp = [...graph.state.collection('servicePrincipals').values()].find(
    (candidate) => candidate.appId === appId,
  );
  const callerRoles = new Set(sp ? rolesOf(graph, sp.id) : []);
  const allowed = [GLOBAL_ADMINISTRATOR, PRIVILEGED_AUTHENTICATION_ADMINISTRATOR];
  if (targetRoles.every((role) => USER_ADMINISTRATOR_TARGETS.has(role))) allowed.push(USER_ADMINISTRATOR);
  if (!allowed.some((role) => callerRoles.has(role)))
    throw new GraphError(
      403,
      'Authorization_RequestDenied',
      'Insufficient privileges to complete the operation.',
    );
}

/** The role definition ids a principal holds tenant-wide (active role assignments at `/`). */
function rolesOf(graph: GraphContext, principalId: string): string[] {
  return [...graph.state.collection('roleAssignments').values()]
    .filter((assignment) => assignment.principalId === principalId && assignment.directoryScopeId === '/')
    .map((assignment) => String(assignment.roleDefinitionId));
}
