import { redact } from '@libs/providers/okta/okta-not-captured.js';
import { OKTA_RESOURCE_TYPES, type OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';

import { roleAssignmentJson } from './resources/admin-roles.routes.js';
import { emailTemplateJson } from './resources/brands.routes.js';
import { catalogApp } from './resources/catalog-apps.js';
import { render } from './resources/links.js';
import { profileMappingJson } from './resources/profile-mappings.routes.js';
import type { SnapshotRecord } from './simulator-options.js';
import type { Entry, Json } from './store/entry.js';
import type { OrderedCollection } from './store/ordered-collection.js';
import { type ChildCollections, type OrgState, pairKey, policyKey } from './store/org-state.js';

type Naming = (data: Json) => string | null;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const byName: Naming = (data) => text(data.name);
const byProfile =
  (field: string): Naming =>
  (data) =>
    text((data.profile as Json | undefined)?.[field]);
const byLabel: Naming = (data) => text(data.label);
const byTitle: Naming = (data) => text(data.title);
const none: Naming = () => null;

function* idsOf(collection: OrderedCollection<Entry>): IterableIterator<string> {
  for (const [id] of collection.entries()) yield id;
}

/** The last segment of the `rel` link of a rendered object (a schema id, a policy id). */
function linkedId(data: Json, rel: string): string | undefined {
  const href = (data._links as Record<string, { href?: unknown }> | undefined)?.[rel]?.href;
  return typeof href === 'string' ? href.split('/').pop() : undefined;
}

/**
 * The org as records of the shared vocabulary, built the way a connector listing the API
 * would build them (okta-resource-types.ts): ids of child objects are `<parentId>:<childId>`,
 * `data` is the object as the API returns it (generated `_links` included) minus the secrets a
 * backup drops (the connector's notCaptured table), names as the connector gives them.
 * Group memberships hold `{ groupId, userId }`, app sign-on policies `{ appId, policyId }`.
 */
export function snapshotOf(state: OrgState, baseUrl: string): Record<OktaResourceType, SnapshotRecord[]> {
  const out = Object.fromEntries(OKTA_RESOURCE_TYPES.map((t) => [t, [] as SnapshotRecord[]])) as Record<
    OktaResourceType,
    SnapshotRecord[]
  >;
  const push = (type: OktaResourceType, id: string, name: string | null, data: Json) =>
    out[type].push({ id, name, data: redact(type, data) });
  const add = (
    type: OktaResourceType,
    entry: Entry,
    parents: string[],
    name: Naming,
    view: 'list' | 'item' = 'item',
    key: (data: Json) => string = (data) => String(data.id),
  ) => {
    const data = render(type, entry, baseUrl, parents, view);
    push(type, [...parents, key(data)].join(':'), name(data), data);
  };
  const addChildren = (
    type: OktaResourceType,
    children: ChildCollections<Entry>,
    parentIds: Iterable<string>,
    name: Naming,
    key?: (data: Json) => string,
  ) => {
    for (const parentId of parentIds)
      for (const entry of children.peek(parentId)?.valuesInOrder() ?? [])
        add(type, entry, [parentId], name, 'item', key);
  };

  for (const entry of state.userTypes.valuesInOrder()) add('user_type', entry, [], byName);
  for (const type of out.user_type) {
    const schema = state.userSchemas.get(linkedId(type.data, 'schema') ?? '');
    if (schema) push('user_schema', `${type.id}:schema`, byTitle(schema.data), schema.data);
  }
  for (const entry of state.groupSchemas.valuesInOrder())
    push('group_schema', 'default', byTitle(entry.data), entry.data);
  for (const entry of state.linkedObjects.valuesInOrder()) {
    const primary = entry.data.primary as Json;
    add(
      'linked_object',
      entry,
      [],
      () => text(primary.title),
      'item',
      () => String(primary.name),
    );
  }
  for (const entry of state.networkZones.valuesInOrder()) add('network_zone', entry, [], byName);
  for (const [groupId, group] of state.groups.entries()) {
    add('group', group, [], byProfile('name'));
    for (const [userId] of state.groupMembers.peek(groupId)?.entries() ?? [])
      out.group_membership.push({ id: `${groupId}:${userId}`, name: null, data: { groupId, userId } });
  }
  for (const entry of state.users.valuesInOrder()) add('user', entry, [], byProfile('login'), 'list');
  addChildren('group_owner', state.groupOwners, idsOf(state.groups), (data) => text(data.displayName));
  for (const entry of state.groupRules.valuesInOrder()) add('group_rule', entry, [], byName);
  for (const entry of state.authenticators.valuesInOrder()) add('authenticator', entry, [], byName);
  for (const entry of state.behaviors.valuesInOrder()) add('behavior', entry, [], byName);
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
  for (const app of state.apps.valuesInOrder()) add('app', app, [], byLabel);
  const appIds = [...idsOf(state.apps)];
  addChildren('app_user_assignment', state.appUsers, appIds, none);
  addChildren('app_group_assignment', state.appGroups, appIds, none);
  addChildren('app_feature', state.appFeatures, appIds, byName, (data) => String(data.name));
  addChildren('app_user_schema', state.appUserSchemas, appIds, byTitle, () => 'default');
  for (const app of out.app) {
    const policyId = linkedId(app.data, 'accessPolicy');
    if (policyId)
      out.app_sign_on_policy.push({
        id: `${app.id}:${policyId}`,
        name: null,
        data: { appId: app.id, policyId },
      });
  }
  addChildren(
    'app_signing_key',
    state.appKeys,
    appIds,
    (data) => text(data.kid),
    (data) => String(data.kid),
  );
  const oidcApps = appIds.filter((id) => state.apps.get(id)?.data.signOnMode === 'OPENID_CONNECT');
  addChildren('app_client_secret', state.appSecrets, oidcApps, none);
  for (const entry of state.identityProviders.valuesInOrder()) add('identity_provider', entry, [], byName);
  for (const entry of state.profileMappings.valuesInOrder()) {
    const data = profileMappingJson(entry, baseUrl);
    const source = text((data.source as Json | undefined)?.name);
    const target = text((data.target as Json | undefined)?.name);
    push('profile_mapping', String(data.id), source && target ? `${source} -> ${target}` : null, data);
  }
  for (const entry of state.eventHooks.valuesInOrder()) add('event_hook', entry, [], byName);
  for (const entry of state.inlineHooks.valuesInOrder()) add('inline_hook', entry, [], byName);
  for (const entry of state.trustedOrigins.valuesInOrder()) add('trusted_origin', entry, [], byName);
  const brandIds = [...idsOf(state.brands)];
  for (const entry of state.brands.valuesInOrder()) add('brand', entry, [], byName);
  addChildren('brand_theme', state.brandThemes, brandIds, none);
  for (const brandId of brandIds)
    for (const template of state.emailTemplates.peek(brandId)?.valuesInOrder() ?? []) {
      const name = String(template.data.name);
      const data = emailTemplateJson(state, brandId, template, ['settings', 'customizationCount']);
      push('email_template', `${brandId}:${name}`, name, data);
      for (const entry of state.emailCustomizations.peek(pairKey(brandId, name))?.valuesInOrder() ?? [])
        add('email_customization', entry, [brandId, name], (d) => text(d.subject));
    }
  for (const brandId of brandIds)
    for (const page of ['sign-in', 'error', 'sign-out']) {
      const entry = state.brandPages.peek(brandId)?.get(page);
      if (entry) push('brand_page', `${brandId}:${page}`, null, entry.data);
    }
  for (const entry of state.customDomains.valuesInOrder())
    add('custom_domain', entry, [], (d) => text(d.domain));
  for (const [roleId, role] of state.customRoles.entries()) {
    add('custom_admin_role', role, [], byLabel);
    for (const permission of state.rolePermissions.peek(roleId)?.valuesInOrder() ?? [])
      push(
        'custom_admin_role_permission',
        `${roleId}:${String(permission.data.label)}`,
        byLabel(permission.data),
        permission.data,
      );
  }
  const setIds = [...idsOf(state.resourceSets)];
  for (const entry of state.resourceSets.valuesInOrder()) add('resource_set', entry, [], byLabel);
  addChildren('resource_set_resource', state.resourceSetResources, setIds, (d) => text(d.orn));
  for (const setId of setIds)
    for (const [roleId, binding] of state.resourceSetBindings.peek(setId)?.entries() ?? []) {
      add('resource_set_binding', binding, [setId], none);
      for (const member of state.bindingMembers.peek(pairKey(setId, roleId))?.valuesInOrder() ?? [])
        add('resource_set_binding_member', member, [setId, roleId], none);
    }
  for (const [assignee, owners, roles] of [
    ['USER', state.users, state.userRoles],
    ['GROUP', state.groups, state.groupRoles],
  ] as const)
    for (const ownerId of idsOf(owners))
      for (const entry of roles.peek(ownerId)?.valuesInOrder() ?? []) {
        const assignmentId = `${ownerId}:${String(entry.data.id)}`;
        push(
          'admin_role_assignment',
          assignmentId,
          byLabel(entry.data),
          roleAssignmentJson(entry, assignee, ownerId, baseUrl),
        );
        for (const [targetId, target] of state.roleTargets
          .peek(pairKey(ownerId, String(entry.data.id)))
          ?.entries() ?? [])
          out.admin_role_target.push(
            roleTargetRecord(state, baseUrl, assignee, entry, `${assignmentId}:${targetId}`, target),
          );
      }
  return out;
}

/**
 * A role target as a backup records it (okta-resource-types.ts): `{ assignmentType, roleType }` and
 * `groupId`, `appId` or `appName`, named by the group's name, the app's label or the catalog
 * app's display name.
 */
function roleTargetRecord(
  state: OrgState,
  baseUrl: string,
  assignmentType: 'USER' | 'GROUP',
  assignment: Entry,
  id: string,
  target: Entry,
): SnapshotRecord {
  const data: Json = { assignmentType, roleType: assignment.data.type };
  if (target.data.kind === 'GROUP') {
    const group = state.groups.get(String(target.data.id));
    return { id, name: byProfile('name')(group?.data ?? {}), data: { ...data, groupId: target.data.id } };
  }
  if (target.data.kind === 'APP') {
    const app = state.apps.get(String(target.data.id));
    return { id, name: byLabel(app?.data ?? {}), data: { ...data, appId: target.data.id } };
  }
  const name = String(target.data.appName);
  const catalog = catalogApp(state, name, baseUrl);
  return { id, name: text(catalog?.displayName) ?? name, data: { ...data, appName: name } };
}
