import { OKTA_RESOURCE_TYPES, type OktaResourceType } from '@libs/providers/resource-types.js';

import { render } from './resources/links.js';
import type { SnapshotRecord } from './simulator-options.js';
import type { Entry, Json } from './store/entry.js';
import type { OrderedCollection } from './store/ordered-collection.js';
import { type ChildCollections, type OrgState, policyKey } from './store/org-state.js';

type Naming = (data: Json) => string | null;

const byName: Naming = (data) => (typeof data.name === 'string' ? data.name : null);
const byProfile =
  (field: string): Naming =>
  (data) => {
    const value = (data.profile as Json | undefined)?.[field];
    return typeof value === 'string' ? value : null;
  };
const byLabel: Naming = (data) => (typeof data.label === 'string' ? data.label : null);
const none: Naming = () => null;

function* idsOf(collection: OrderedCollection<Entry>): IterableIterator<string> {
  for (const [id] of collection.entries()) yield id;
}

/**
 * The org as records of the shared vocabulary, built the way a connector listing the API
 * would build them (resource-types.ts): ids of child objects are `<parentId>:<childId>`,
 * `data` is the object as the list endpoint returns it (generated `_links` included), names
 * are the login (users), profile name (groups), label (apps) or `name`, else null.
 * Group memberships hold `{ groupId, userId }`.
 */
export function snapshotOf(state: OrgState, baseUrl: string): Record<OktaResourceType, SnapshotRecord[]> {
  const out = Object.fromEntries(OKTA_RESOURCE_TYPES.map((t) => [t, [] as SnapshotRecord[]])) as Record<
    OktaResourceType,
    SnapshotRecord[]
  >;
  const add = (
    type: OktaResourceType,
    entry: Entry,
    parents: string[],
    name: Naming,
    view: 'list' | 'item' = 'item',
  ) => {
    const data = render(type, entry, baseUrl, parents, view);
    out[type].push({ id: [...parents, String(data.id)].join(':'), name: name(data), data });
  };
  const addChildren = (
    type: OktaResourceType,
    children: ChildCollections<Entry>,
    parentIds: Iterable<string>,
    name: Naming,
  ) => {
    for (const parentId of parentIds)
      for (const entry of children.peek(parentId)?.valuesInOrder() ?? []) add(type, entry, [parentId], name);
  };

  for (const entry of state.users.valuesInOrder()) add('user', entry, [], byProfile('login'), 'list');
  for (const [groupId, group] of state.groups.entries()) {
    add('group', group, [], byProfile('name'));
    for (const [userId] of state.groupMembers.peek(groupId)?.entries() ?? [])
      out.group_membership.push({ id: `${groupId}:${userId}`, name: null, data: { groupId, userId } });
  }
  for (const entry of state.groupRules.valuesInOrder()) add('group_rule', entry, [], byName);
  for (const app of state.apps.valuesInOrder()) add('app', app, [], byLabel);
  addChildren('app_user_assignment', state.appUsers, idsOf(state.apps), none);
  addChildren('app_group_assignment', state.appGroups, idsOf(state.apps), none);
  for (const policy of state.policies.valuesInOrder()) add('policy', policy, [], byName);
  addChildren('policy_rule', state.policyRules, idsOf(state.policies), byName);
  for (const [serverId, server] of state.authorizationServers.entries()) {
    add('authorization_server', server, [], byName);
    addChildren('authorization_server_scope', state.authorizationServerScopes, [serverId], byName);
    addChildren('authorization_server_claim', state.authorizationServerClaims, [serverId], byName);
    for (const [policyId, policy] of state.authorizationServerPolicies.peek(serverId)?.entries() ?? []) {
      add('authorization_server_policy', policy, [serverId], byName);
      for (const rule of state.authorizationServerPolicyRules
        .peek(policyKey(serverId, policyId))
        ?.valuesInOrder() ?? [])
        add('authorization_server_policy_rule', rule, [serverId, policyId], byName);
    }
  }
  for (const entry of state.networkZones.valuesInOrder()) add('network_zone', entry, [], byName);
  for (const entry of state.trustedOrigins.valuesInOrder()) add('trusted_origin', entry, [], byName);
  return out;
}
