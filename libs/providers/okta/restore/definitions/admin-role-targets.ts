import type { LiveResource } from '@libs/providers/provider-restore.js';
import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import {
  type Assignee,
  CATALOG_TARGET_PREFIX,
  ROLE_TARGET_KINDS,
} from '@libs/providers/okta/okta-role-targets.js';
import {
  idParts,
  pick,
  type RestoreDefinition,
  type WriteContext,
} from '@libs/providers/okta/restore/restore-definition.js';

const LAST_TARGET =
  'The last target of an admin role assignment that stays: a prune never removes it (Okta refuses it, and the role would then apply to the whole org). To make the role org-wide as the backup has it, unassign it and grant it again by hand';

/** What names a target: `<USER|GROUP>:<ownerId>:<roleType>:<targetId>`, whatever the assignment's id. */
function targetKey(recordId: string, data: OktaObject): string | null {
  const [ownerId, , targetId] = idParts(recordId);
  const assignee = data.assignmentType;
  if ((assignee !== 'USER' && assignee !== 'GROUP') || typeof data.roleType !== 'string') return null;
  return [assignee, ownerId, data.roleType, targetId].join(':');
}

/** A target as its writes need it, from its record id and its natural key (a live resource has only these). */
interface Target {
  assignee: Assignee;
  ownerId: string;
  roleAssignmentId: string;
  roleType: string;
  targetId: string;
}

function parseTarget(recordId: string, key: string | null): Target {
  const [assignee, , roleType] = key?.split(':') ?? [];
  const [ownerId, roleAssignmentId, targetId] = idParts(recordId);
  if ((assignee !== 'USER' && assignee !== 'GROUP') || !roleType || !targetId)
    throw new Error(`Role target ${recordId} has no owner kind or role type`);
  return { assignee, ownerId, roleAssignmentId, roleType, targetId };
}

/**
 * The app instance's OIN key (`name`), which the target paths take and a target list does not
 * give (it names an instance by its label): GET /api/v1/apps/{appId}. Undefined when the app is
 * gone.
 */
async function appNameOf(appId: string, context: WriteContext): Promise<string | undefined> {
  const app = await context.api.object({
    template: '/api/v1/apps/{appId}',
    params: { appId },
    emptyOn: [404],
    signal: context.signal,
  });
  return typeof app?.name === 'string' ? app.name : undefined;
}

/**
 * The target's item path (RoleBTargetAdmin, RoleBTargetBGroup): `.../targets/groups/{groupId}`
 * (`{targetGroupId}` under a group), `.../targets/catalog/apps/{appName}` for a whole OIN app,
 * `.../targets/catalog/apps/{appName}/{appId}` for an instance. Undefined when the instance's app
 * is gone.
 */
async function targetPath(
  target: Target,
  context: WriteContext,
): Promise<{ template: string; params: Record<string, string> } | undefined> {
  const { assignee, ownerId, roleAssignmentId, targetId } = target;
  const owner = assignee === 'USER' ? 'users/{userId}' : 'groups/{groupId}';
  const base = `/api/v1/${owner}/roles/{roleAssignmentId}/targets`;
  const params = { [assignee === 'USER' ? 'userId' : 'groupId']: ownerId, roleAssignmentId };
  if (ROLE_TARGET_KINDS[target.roleType] === 'groups') {
    const groupParam = assignee === 'USER' ? 'groupId' : 'targetGroupId';
    return { template: `${base}/groups/{${groupParam}}`, params: { ...params, [groupParam]: targetId } };
  }
  if (targetId.startsWith(CATALOG_TARGET_PREFIX))
    return {
      template: `${base}/catalog/apps/{appName}`,
      params: { ...params, appName: targetId.slice(CATALOG_TARGET_PREFIX.length) },
    };
  const appName = await appNameOf(targetId, context);
  if (appName === undefined) return undefined;
  return {
    template: `${base}/catalog/apps/{appName}/{appId}`,
    params: { ...params, appName, appId: targetId },
  };
}

/**
 * Keeps the targets of an assignment that stays when the prune would leave it none. Okta refuses
 * to remove an assignment's last target ("You can't remove the last group target from a role
 * assignment since this causes an exception", unassignGroupTargetFromUserAdminRole and its app
 * twins), and a role without targets applies to every group or app of the org: pruning them
 * would widen the role, never restore it. Targets of an assignment, user or group the prune
 * deletes (`going`) go with it.
 */
function guardLastTargets(
  deleting: readonly LiveResource[],
  remaining: readonly LiveResource[],
  going: ReadonlySet<string>,
): Map<string, string> {
  const assignmentOf = (id: string) => idParts(id).slice(0, 2).join(':');
  const limited = new Set(remaining.map((target) => assignmentOf(target.id)));
  const kept = new Map<string, string>();
  for (const target of deleting) {
    const assignment = assignmentOf(target.id);
    if (going.has(assignment) || going.has(idParts(target.id)[0]) || limited.has(assignment)) continue;
    kept.set(target.id, LAST_TARGET);
  }
  return kept;
}

/**
 * Targets of standard admin role assignments (`<ownerId>:<assignmentId>:<targetId>`,
 * okta-resource-types.ts): the groups a USER_ADMIN, HELP_DESK_ADMIN or GROUP_MEMBERSHIP_ADMIN role is
 * limited to, the app instances and whole OIN apps of an APP_ADMIN role. Created with PUT and
 * removed with DELETE on the target's path (204, recorded for users' and groups' roles alike);
 * nothing to update: another target is another record. They are matched by owner, role type and
 * target, not by the assignment's id, so they follow a re-granted assignment.
 *
 * A restore applies them right after admin_role_assignment (okta-restore-order.ts): Okta cannot
 * grant a role with its targets in one request, so a re-created assignment applies to the whole
 * org until its targets are added, seconds later; a target that cannot be added (its group or
 * app gone) fails and says the role is org-wide until it is limited by hand. A prune never
 * removes the last target of an assignment that stays (guardLastTargets), and leaves the
 * targets of an assignment it deletes to that deletion (libs/restore/pruner.ts).
 */
export const adminRoleTarget: RestoreDefinition = {
  writable: (data) => pick(data, ['assignmentType', 'roleType', 'groupId', 'appId', 'appName']),
  naturalKey: (record) => targetKey(record.id, record.data),
  notes: [
    'Targets come back right after their role assignment: Okta cannot grant a role with its targets in one request, so a re-created USER_ADMIN, HELP_DESK_ADMIN, GROUP_MEMBERSHIP_ADMIN or APP_ADMIN assignment applies to the whole org for the seconds until its targets are added',
    'A prune never removes the last target of an assignment that stays (Okta refuses it, and the role would apply to the whole org): a role the backup holds without targets keeps the targets it has now until it is unassigned and granted again by hand',
  ],
  async create(record, context) {
    const target = parseTarget(record.id, targetKey(record.id, record.data));
    const path = await targetPath(target, context);
    if (!path)
      throw new ProviderRequestError(
        `App ${target.targetId} is gone: ${target.roleType} cannot be limited to it and applies to every app until its targets are set by hand`,
        404,
      );
    try {
      await context.api.write({ method: 'PUT', ...path, signal: context.signal });
    } catch (error) {
      if (!(error instanceof ProviderRequestError)) throw error;
      throw new ProviderRequestError(
        `${error.message}. Until ${target.roleType} of ${target.ownerId} is limited again it applies to what its other targets leave, or to the whole org if it has none`,
        error.status,
      );
    }
    return { id: record.id };
  },
  async remove(live, context) {
    const path = await targetPath(parseTarget(live.id, live.key), context);
    // A target whose app is gone went with the app.
    if (!path) return;
    await context.api.write({ method: 'DELETE', ...path, okOn: [404], signal: context.signal });
  },
  guardDeletions: guardLastTargets,
};
