import type { OktaObject } from './okta-api-client.js';

/**
 * Standard roles Okta limits to targets, and the targets each takes (RoleBTargetAdmin,
 * RoleBTargetBGroup in management.yaml): groups for USER_ADMIN, HELP_DESK_ADMIN and
 * GROUP_MEMBERSHIP_ADMIN (`targets/groups`), OIN apps and app instances for APP_ADMIN
 * (`targets/catalog/apps`). Custom roles are limited by resource sets instead.
 */
export const ROLE_TARGET_KINDS: Readonly<Record<string, 'groups' | 'catalog/apps'>> = {
  USER_ADMIN: 'groups',
  HELP_DESK_ADMIN: 'groups',
  GROUP_MEMBERSHIP_ADMIN: 'groups',
  APP_ADMIN: 'catalog/apps',
};

/** Prefix of the target id of a whole OIN catalog app (okta-resource-types.ts): `catalog.<appName>`. */
export const CATALOG_TARGET_PREFIX = 'catalog.';

/** Who holds a role assignment (RoleAssignmentType). */
export type Assignee = 'USER' | 'GROUP';

/**
 * The owner's kind of a role assignment: `assignmentType`, else its `_links.assignee`
 * (`/api/v1/groups/...` for a group), else USER.
 */
export function assigneeOf(data: OktaObject): Assignee {
  if (data.assignmentType === 'USER' || data.assignmentType === 'GROUP') return data.assignmentType;
  const href = (data._links as { assignee?: { href?: unknown } } | undefined)?.assignee?.href;
  return typeof href === 'string' && href.includes('/api/v1/groups/') ? 'GROUP' : 'USER';
}

/** What a role assignment's targets need from it: `{ assignmentType, roleType }`. */
export function roleAssignmentKeys(role: OktaObject): Record<string, string> {
  return {
    assignmentType: assigneeOf(role),
    ...(typeof role.type === 'string' ? { roleType: role.type } : {}),
  };
}

/**
 * The list of an assignment's targets: `/api/v1/{users/{userId}|groups/{groupId}}/roles/
 * {roleAssignmentId}/targets/{groups|catalog/apps}` (listGroupTargetsForRole,
 * listGroupTargetsForGroupRole, listApplicationTargetsForApplicationAdministratorRoleFor{User,
 * Group}). `keys` are roleAssignmentKeys of a role that takes targets.
 */
export function roleTargetsTemplate(keys: Readonly<Record<string, string>>): string {
  const owner = keys.assignmentType === 'GROUP' ? 'groups/{groupId}' : 'users/{userId}';
  return `/api/v1/${owner}/roles/{roleAssignmentId}/targets/${ROLE_TARGET_KINDS[keys.roleType]}`;
}

/** The path parameters of roleTargetsTemplate from the assignment's record id `<ownerId>:<id>`. */
export function roleTargetsParams(
  assignmentId: string,
  keys: Readonly<Record<string, string>>,
): Record<string, string> {
  const [ownerId, roleAssignmentId] = assignmentId.split(':');
  return { [keys.assignmentType === 'GROUP' ? 'groupId' : 'userId']: ownerId, roleAssignmentId };
}

/**
 * A listed target's id: a group's or app instance's `id`; an OIN app (listed without `id`, as
 * the description says and the recordings show) `catalog.<name>`. Null when it has neither.
 */
export function roleTargetKey(target: OktaObject): string | null {
  if (typeof target.id === 'string' && target.id !== '') return target.id;
  return typeof target.name === 'string' && target.name !== ''
    ? `${CATALOG_TARGET_PREFIX}${target.name}`
    : null;
}

/**
 * A target record's data (okta-resource-types.ts): `{ assignmentType, roleType }` and the target,
 * `groupId`, `appId` (an instance) or `appName` (every instance of an OIN app). Okta lists whole
 * groups and apps, which the group and app parts hold; a copy here would change with them.
 */
export function roleTargetData(
  keys: Readonly<Record<string, string>>,
  targetId: string,
): Record<string, unknown> {
  const base = { assignmentType: keys.assignmentType, roleType: keys.roleType };
  if (ROLE_TARGET_KINDS[keys.roleType] === 'groups') return { ...base, groupId: targetId };
  if (targetId.startsWith(CATALOG_TARGET_PREFIX))
    return { ...base, appName: targetId.slice(CATALOG_TARGET_PREFIX.length) };
  return { ...base, appId: targetId };
}
