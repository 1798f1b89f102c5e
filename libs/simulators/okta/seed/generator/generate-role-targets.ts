import { catalogTargetKey, targetEntry } from '@libs/simulators/okta/resources/role-targets.routes.js';
import { STANDARD_ROLE_LABELS } from '@libs/simulators/okta/resources/role-types.js';
import type { Entry } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX } from '@libs/simulators/okta/store/okta-ids.js';
import { type ChildCollections, pairKey } from '@libs/simulators/okta/store/org-state.js';
import type { GeneratorContext } from './generator-context.js';
import type { People } from './generate-people.js';

/**
 * Targets of standard admin roles (Role Targets API): the help desk admin (the second assignable
 * user, generate-directory.ts) limited to one group, the IT group's Group Administrator role to
 * two, and an Application Administrator (the fifth assignable user) limited to one app instance
 * and to every instance of the OIN app `facebook` (an app target recorded from real traffic).
 * Generated last, so that every earlier object keeps what a seed always gave it.
 */
export function generateRoleTargets(ctx: GeneratorContext, people: People, appIds: readonly string[]): void {
  const { state } = ctx;
  const roleOf = (roles: ChildCollections<Entry>, ownerId: string | undefined, type: string) =>
    ownerId === undefined
      ? undefined
      : [...(roles.peek(ownerId)?.valuesInOrder() ?? [])].find((entry) => entry.data.type === type);
  const limit = (ownerId: string, assignment: Entry, targets: Array<[string, Entry]>) => {
    for (const [key, target] of targets)
      state.roleTargets.of(pairKey(ownerId, String(assignment.data.id))).set(key, target);
  };
  const group = (id: string): [string, Entry] => [id, targetEntry('GROUP', { id })];
  const itGroup = people.departmentGroupIds.get('IT');
  const others = people.groupIds.filter((id) => id !== itGroup);

  const helpDeskAdmin = people.assignableUserIds[1];
  const helpDesk = roleOf(state.userRoles, helpDeskAdmin, 'HELP_DESK_ADMIN');
  if (helpDesk && others.length > 0) limit(helpDeskAdmin, helpDesk, [group(others[0])]);
  const groupAdmin = roleOf(state.groupRoles, itGroup, 'USER_ADMIN');
  if (itGroup && groupAdmin && others.length > 2)
    limit(itGroup, groupAdmin, [group(others[1]), group(others[2])]);

  const appAdmin = people.assignableUserIds[4];
  const app = state.apps.get(appIds[0] ?? '');
  if (appAdmin === undefined || !app) return;
  const { created, lastUpdated } = ctx.timestamps();
  const id = ctx.id(ID_PREFIX.roleAssignment);
  const type = 'APP_ADMIN';
  const assignment = {
    data: { id, label: STANDARD_ROLE_LABELS[type], type, status: 'ACTIVE', created, lastUpdated },
  };
  state.userRoles.of(appAdmin).set(id, assignment);
  limit(appAdmin, assignment, [
    [String(app.data.id), targetEntry('APP', { id: app.data.id, appName: app.data.name })],
    [catalogTargetKey('facebook'), targetEntry('CATALOG', { appName: 'facebook' })],
  ]);
}
