import { STANDARD_ROLE_LABELS } from '@libs/simulators/okta/resources/role-types.js';
import { groupSchemaDocument, userSchemaDocument } from '@libs/simulators/okta/resources/schema-documents.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX } from '@libs/simulators/okta/store/okta-ids.js';
import { pairKey } from '@libs/simulators/okta/store/org-state.js';
import type { GeneratorContext } from './generator-context.js';
import type { People } from './generate-people.js';

const CUSTOM_USER_PROPERTIES: Json = {
  costCenter: {
    title: 'Cost center',
    type: 'string',
    mutability: 'READ_WRITE',
    scope: 'NONE',
    permissions: [{ principal: 'SELF', action: 'READ_ONLY' }],
  },
  startDate: {
    title: 'Start date',
    type: 'string',
    mutability: 'READ_WRITE',
    scope: 'NONE',
    permissions: [{ principal: 'SELF', action: 'READ_ONLY' }],
  },
};

/**
 * The default user type (whose id users already carry) and two custom ones, each with its
 * schema (`_links.schema`); the group schema; the manager/subordinate linked object.
 */
function generateTypesAndSchemas(ctx: GeneratorContext): void {
  const { state } = ctx;
  const types: Array<[string, string, string, string, boolean]> = [
    [
      state.defaultUserTypeId,
      'user',
      'User',
      'Okta user profile template with default permission settings',
      true,
    ],
    [ctx.id(ID_PREFIX.userType), 'contractor', 'Contractor', 'External contractors and vendors', false],
    [
      ctx.id(ID_PREFIX.userType),
      'service_account',
      'Service account',
      'Non-human accounts used by integrations',
      false,
    ],
  ];
  for (const [id, name, displayName, description, isDefault] of types) {
    const { created, lastUpdated } = ctx.timestamps();
    const schemaId = ctx.id(ID_PREFIX.userSchema);
    const custom = isDefault ? CUSTOM_USER_PROPERTIES : { sponsor: CUSTOM_USER_PROPERTIES.costCenter };
    state.userSchemas.set(schemaId, {
      data: userSchemaDocument(ctx.baseUrl, schemaId, `${displayName}`, custom, { created, lastUpdated }),
    });
    state.userTypeSchemaIds.set(id, schemaId);
    state.userTypes.set(id, {
      data: {
        id,
        displayName,
        name,
        description,
        createdBy: state.adminUserId,
        lastUpdatedBy: state.adminUserId,
        created,
        lastUpdated,
        default: isDefault,
      },
      linkPaths: { schema: `/api/v1/meta/schemas/user/${schemaId}`, self: `/api/v1/meta/types/user/${id}` },
    });
  }
  const { created, lastUpdated } = ctx.timestamps();
  state.groupSchemas.set('default', {
    data: groupSchemaDocument(
      ctx.baseUrl,
      { costCenter: CUSTOM_USER_PROPERTIES.costCenter },
      { created, lastUpdated },
    ),
  });
  const detail = (name: string, title: string, description: string) => ({
    name,
    title,
    description,
    type: 'USER',
  });
  state.linkedObjects.set('manager', {
    data: {
      primary: detail('manager', 'Manager', 'The person this user reports to'),
      associated: detail('subordinate', 'Subordinate', 'People who report to this user'),
    },
  });
}

/** One or two user owners for each of the first 20 groups (admins, from the assignable users). */
function generateGroupOwners(ctx: GeneratorContext, people: People): void {
  const { state, prng } = ctx;
  if (people.assignableUserIds.length === 0) return;
  for (const groupId of people.groupIds.slice(0, 20)) {
    const owners = state.groupOwners.of(groupId);
    for (const userId of prng.sample(people.assignableUserIds.slice(0, 200), prng.int(1, 2))) {
      const profile = state.users.get(userId)?.data.profile as Json;
      owners.set(userId, {
        data: {
          id: userId,
          type: 'USER',
          resolved: true,
          originId: null,
          originType: 'OKTA_DIRECTORY',
          displayName: `${String(profile.firstName)} ${String(profile.lastName)}`,
          lastUpdated: ctx.timestamps().lastUpdated,
        },
      });
    }
  }
}

/**
 * Admin roles: the org admin is SUPER_ADMIN, two more admins hold standard roles, the IT
 * department group is Group Administrator; a custom "Helpdesk lite" role bound to a resource
 * set of two groups, held by a user and by the Security group; a read-only custom role with no
 * binding.
 */
function generateAdminRoles(ctx: GeneratorContext, people: People): void {
  const { state } = ctx;
  const assign = (owner: 'user' | 'group', ownerId: string, fields: Json) => {
    const { created, lastUpdated } = ctx.timestamps();
    const id = ctx.id(ID_PREFIX.roleAssignment);
    const roles = owner === 'user' ? state.userRoles : state.groupRoles;
    roles.of(ownerId).set(id, { data: { id, status: 'ACTIVE', created, lastUpdated, ...fields } });
  };
  const standard = (type: string) => ({ label: STANDARD_ROLE_LABELS[type], type });
  const [first, second, third, fourth] = people.assignableUserIds;
  if (state.users.has(state.adminUserId)) assign('user', state.adminUserId, standard('SUPER_ADMIN'));
  if (first) assign('user', first, standard('ORG_ADMIN'));
  if (second) assign('user', second, standard('HELP_DESK_ADMIN'));
  const itGroup = people.departmentGroupIds.get('IT');
  if (itGroup) assign('group', itGroup, standard('USER_ADMIN'));

  const role = (label: string, description: string, permissions: string[]) => {
    const { created, lastUpdated } = ctx.timestamps();
    const id = ctx.id(ID_PREFIX.customRole);
    // As Okta answers them (recorded): an admin's role is not cloneable, a permission without
    // conditions has `conditions: null`.
    state.customRoles.set(id, { data: { id, label, isCloneable: false, description, created, lastUpdated } });
    for (const permission of permissions)
      state.rolePermissions
        .of(id)
        .set(permission, { data: { label: permission, created, lastUpdated, conditions: null } });
    return id;
  };
  const helpdesk = role('Helpdesk lite', 'Reset passwords and unlock users in scoped groups', [
    'okta.users.read',
    'okta.users.credentials.resetPassword',
    'okta.users.lifecycle.unlock',
  ]);
  role('App auditor', 'Read apps and their assignments', ['okta.apps.read', 'okta.groups.read']);

  const scoped = people.groupIds.slice(0, 2);
  if (scoped.length === 0) return;
  const { created, lastUpdated } = ctx.timestamps();
  const setId = ctx.id(ID_PREFIX.resourceSet);
  state.resourceSets.set(setId, {
    data: {
      id: setId,
      label: 'Helpdesk scope',
      description: 'Groups the helpdesk may act on',
      created,
      lastUpdated,
    },
  });
  for (const groupId of scoped) {
    const id = ctx.id(ID_PREFIX.resourceSetResource);
    state.resourceSetResources.of(setId).set(id, {
      data: { id, orn: `orn:okta:directory:simulator:groups:${groupId}`, created, lastUpdated },
    });
  }
  const base = `${ctx.baseUrl}/api/v1/iam/resource-sets/${setId}`;
  state.resourceSetBindings.of(setId).set(helpdesk, {
    data: {
      id: helpdesk,
      _links: {
        self: { href: `${base}/bindings/${helpdesk}` },
        bindings: { href: `${base}/bindings` },
        'resource-set': { href: base },
      },
    },
  });
  const securityGroup = people.departmentGroupIds.get('Security');
  const members = [
    ...(third ? [`${ctx.baseUrl}/api/v1/users/${third}`] : []),
    ...(securityGroup ? [`${ctx.baseUrl}/api/v1/groups/${securityGroup}`] : []),
  ];
  for (const href of members) {
    const id = ctx.id(ID_PREFIX.bindingMember);
    state.bindingMembers
      .of(pairKey(setId, helpdesk))
      .set(id, { data: { id, created, lastUpdated, _links: { self: { href } } } });
  }
  const custom = { label: 'Helpdesk lite', type: 'CUSTOM', role: helpdesk, 'resource-set': setId };
  if (third) assign('user', third, custom);
  if (securityGroup) assign('group', securityGroup, custom);
  if (fourth) assign('user', fourth, standard('READ_ONLY_ADMIN'));
}

/**
 * The directory's configuration around users and groups: user types and schemas, the group
 * schema, linked objects, group owners and admin roles (custom roles and resource sets
 * included). A few dozen objects whatever the org's size.
 */
export function generateDirectory(ctx: GeneratorContext, people: People): void {
  generateTypesAndSchemas(ctx);
  generateGroupOwners(ctx, people);
  generateAdminRoles(ctx, people);
}
