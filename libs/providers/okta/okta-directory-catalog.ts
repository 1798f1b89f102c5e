import { field, noName } from '@libs/providers/kit/resource-catalog.js';
import type { OktaObject } from './okta-api-client.js';
import type { ResourceDefinition } from './okta-catalog-types.js';
import { PAGE_LIMITS } from './okta-endpoints.js';

/** The last path segment of a link, e.g. a schema id from `_links.schema.href`. */
const linkedId =
  (rel: string) =>
  (object: OktaObject): string | undefined => {
    const href = (object._links as Record<string, { href?: unknown }> | undefined)?.[rel]?.href;
    return typeof href === 'string' ? href.split('/').pop() : undefined;
  };

/** `{ key: value }` when the value is a string, else nothing: what a parent remembers. */
const keep = (key: string, value: string | undefined): Record<string, string> =>
  value === undefined ? {} : { [key]: value };

/**
 * How Okta's directory types are listed (schemas, users, groups, apps, identity providers,
 * profile mappings): endpoints from management.yaml, record names per resource-types.ts. The rest
 * of the catalogue is okta-resource-catalog.ts.
 */
export const DIRECTORY_DEFINITIONS = {
  user_type: {
    kind: 'top',
    template: '/api/v1/meta/types/user',
    name: field('name'),
    // The type's schema is `_links.schema` (`/api/v1/meta/schemas/user/{schemaId}`).
    remember: (type) => keep('schemaId', linkedId('schema')(type)),
  },
  user_schema: {
    kind: 'child_objects',
    parent: 'user_type',
    objects: [{ key: 'schema', template: '/api/v1/meta/schemas/user/{schemaId}' }],
    applies: (type) => type.keys.schemaId !== undefined,
    params: (type) => ({ schemaId: type.keys.schemaId }),
    name: field('title'),
  },
  group_schema: {
    kind: 'single',
    template: '/api/v1/meta/schemas/group/default',
    id: 'default',
    name: field('title'),
  },
  linked_object: {
    kind: 'top',
    template: '/api/v1/meta/schemas/user/linkedObjects',
    key: field('primary', 'name'),
    name: field('primary', 'title'),
  },
  user: { kind: 'users', name: field('profile', 'login'), incremental: { fields: ['lastUpdated'] } },
  group: {
    kind: 'top',
    template: '/api/v1/groups',
    query: { limit: PAGE_LIMITS.groups },
    name: field('profile', 'name'),
    // A member added or removed changes the group's `lastMembershipUpdated`, which its record
    // holds, not its `lastUpdated` (Groups API: "groups with profile or membership updated").
    incremental: { fields: ['lastUpdated', 'lastMembershipUpdated'] },
  },
  group_membership: {
    kind: 'child',
    parent: 'group',
    template: '/api/v1/groups/{groupId}/users',
    query: { limit: PAGE_LIMITS.groupUsers },
    params: (group) => ({ groupId: group.id }),
    name: noName,
    // Okta answers whole users, which the user part already holds.
    data: (group, userId) => ({ groupId: group.id, userId }),
    incremental: { parentField: 'lastMembershipUpdated' },
  },
  group_owner: {
    kind: 'child',
    parent: 'group',
    template: '/api/v1/groups/{groupId}/owners',
    query: { limit: PAGE_LIMITS.groupOwners },
    params: (group) => ({ groupId: group.id }),
    name: field('displayName'),
  },
  group_rule: {
    kind: 'top',
    template: '/api/v1/groups/rules',
    query: { limit: PAGE_LIMITS.groupRules },
    name: field('name'),
  },
  app: {
    kind: 'top',
    template: '/api/v1/apps',
    query: { limit: PAGE_LIMITS.apps },
    name: field('label'),
    remember: (app) => ({
      ...keep('signOnMode', field('signOnMode')(app) ?? undefined),
      ...keep('accessPolicyId', linkedId('accessPolicy')(app)),
    }),
  },
  app_user_assignment: {
    kind: 'child',
    parent: 'app',
    template: '/api/v1/apps/{appId}/users',
    query: { limit: PAGE_LIMITS.appUsers },
    params: (app) => ({ appId: app.id }),
    name: noName,
  },
  app_group_assignment: {
    kind: 'child',
    parent: 'app',
    template: '/api/v1/apps/{appId}/groups',
    query: { limit: PAGE_LIMITS.appGroups },
    params: (app) => ({ appId: app.id }),
    name: noName,
  },
  app_feature: {
    kind: 'child',
    parent: 'app',
    template: '/api/v1/apps/{appId}/features',
    params: (app) => ({ appId: app.id }),
    key: field('name'),
    // Apps without provisioning answer 400 (E0000150 "provisioning is not supported").
    emptyOn: [400, 404],
    name: field('name'),
  },
  app_user_schema: {
    kind: 'child_objects',
    parent: 'app',
    objects: [{ key: 'default', template: '/api/v1/meta/schemas/apps/{appId}/default' }],
    params: (app) => ({ appId: app.id }),
    name: field('title'),
  },
  app_sign_on_policy: {
    kind: 'derived',
    parent: 'app',
    derive: (app) => {
      const policyId = app.keys.accessPolicyId;
      return policyId === undefined ? null : { key: policyId, data: { appId: app.id, policyId } };
    },
  },
  app_signing_key: {
    kind: 'child',
    parent: 'app',
    template: '/api/v1/apps/{appId}/credentials/keys',
    params: (app) => ({ appId: app.id }),
    key: field('kid'),
    name: field('kid'),
  },
  app_client_secret: {
    kind: 'child',
    parent: 'app',
    template: '/api/v1/apps/{appId}/credentials/secrets',
    // Only OAuth 2.0 clients have secrets.
    applies: (app) => app.keys.signOnMode === 'OPENID_CONNECT',
    params: (app) => ({ appId: app.id }),
    name: noName,
  },
  identity_provider: {
    kind: 'top',
    template: '/api/v1/idps',
    query: { limit: PAGE_LIMITS.identityProviders },
    name: field('name'),
  },
  profile_mapping: {
    kind: 'top',
    template: '/api/v1/mappings',
    query: { limit: PAGE_LIMITS.profileMappings },
    // The list holds source and target only; the property mappings come with each mapping.
    detail: { template: '/api/v1/mappings/{mappingId}', param: 'mappingId' },
    name: (mapping) => {
      const source = field('source', 'name')(mapping);
      const target = field('target', 'name')(mapping);
      return source && target ? `${source} -> ${target}` : null;
    },
  },
} satisfies Record<string, ResourceDefinition>;
