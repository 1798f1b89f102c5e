import { manageScopes, readScopes } from '@libs/simulators/okta/auth/principal.js';
import { OktaError, notFound } from '@libs/simulators/okta/http/okta-error.js';
import { jsonText } from '@libs/simulators/kit/http/reply.js';
import { jsonBody } from '@libs/simulators/okta/http/request-body.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import { replaced, type Entry, type Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaId, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import type { OrderedCollection } from '@libs/simulators/okta/store/ordered-collection.js';
import { collectionRoutes } from './collection-routes.js';
import { serialize } from './links.js';
import { mergeSchema, userSchemaDocument } from './schema-documents.js';
import { requireText } from './validation.js';

/** One schema document served at `path` and updated by POST (a partial update, mergeSchema). */
function schemaRoutes(
  org: OrgContext,
  path: string,
  type: 'user_schema' | 'group_schema' | 'app_user_schema',
  find: (params: Record<string, string>) => { collection: OrderedCollection<Entry>; key: string },
): Route[] {
  const read = { kind: 'admin', scopes: readScopes('okta.schemas') } as const;
  const write = { kind: 'admin', scopes: manageScopes('okta.schemas') } as const;
  const existing = (params: Record<string, string>) => {
    const { collection, key } = find(params);
    const entry = collection.get(key);
    if (!entry) throw notFound(key, 'UserSchema');
    return { collection, key, entry };
  };
  return [
    {
      method: 'GET',
      template: path,
      access: read,
      handle: ({ params }) => jsonText(200, serialize(type, existing(params).entry, org.baseUrl)),
    },
    {
      method: 'POST',
      template: path,
      access: write,
      handle: (context) => {
        const { collection, key, entry } = existing(context.params);
        const next = replaced(entry, mergeSchema(entry.data, jsonBody(context), oktaTimestamp(org.now())));
        collection.set(key, next);
        return jsonText(200, serialize(type, next, org.baseUrl));
      },
    },
  ];
}

/**
 * User types (`/api/v1/meta/types/user`: a new type gets its own schema, a copy of the base
 * profile, linked as `_links.schema`; the default type and types in use cannot be deleted;
 * updates by POST or PUT), user schemas (`/api/v1/meta/schemas/user/{schemaId}`, `default`
 * naming the default type's), the group schema, apps' user schemas and linked object
 * definitions (`/api/v1/meta/schemas/user/linkedObjects`, keyed by `primary.name`, created
 * with 201, never updated).
 */
export function schemaTypeRoutes(org: OrgContext): Route[] {
  const { state } = org;
  const schemaPath = (schemaId: string) => `/api/v1/meta/schemas/user/${schemaId}`;
  return [
    ...collectionRoutes(
      {
        type: 'user_type',
        kindName: 'UserType',
        path: '/api/v1/meta/types/user',
        idParam: 'typeId',
        idPrefix: ID_PREFIX.userType,
        scopeFamily: 'okta.userTypes',
        limits: PAGE_LIMITS.unpaged,
        collection: (o) => o.state.userTypes,
        defaults: (body, { org: o, id }) => {
          requireText(body, 'name');
          const title = requireText(body, 'displayName');
          const schemaId = oktaId(ID_PREFIX.userSchema);
          const now = oktaTimestamp(o.now());
          const times = { created: now, lastUpdated: now };
          o.state.userSchemas.set(schemaId, {
            data: userSchemaDocument(o.baseUrl, schemaId, title, {}, times),
          });
          o.state.userTypeSchemaIds.set(id, schemaId);
          return { default: false, createdBy: o.state.adminUserId, lastUpdatedBy: o.state.adminUserId };
        },
        linkPaths: (data, o) => ({
          schema: schemaPath(o.state.userTypeSchemaIds.get(String(data.id)) ?? ''),
          self: `/api/v1/meta/types/user/${String(data.id)}`,
        }),
        createStatus: 200,
        updateMethods: ['POST', 'PUT'],
        guardDelete: (type) => {
          if (type.default === true)
            return new OktaError(403, 'E0000006', 'The default user type cannot be deleted');
          for (const user of state.users.valuesInOrder())
            if ((user.data.type as Json | undefined)?.id === type.id)
              return new OktaError(403, 'E0000006', 'A user type assigned to users cannot be deleted');
          return undefined;
        },
        cascadeDelete: (o, id) => {
          const schemaId = o.state.userTypeSchemaIds.get(id);
          if (schemaId) o.state.userSchemas.delete(schemaId);
          o.state.userTypeSchemaIds.delete(id);
        },
        deleteStatus: 204,
      },
      org,
    ),
    ...schemaRoutes(org, '/api/v1/meta/schemas/user/{schemaId}', 'user_schema', ({ schemaId }) => ({
      collection: state.userSchemas,
      key:
        schemaId === 'default'
          ? (state.userTypeSchemaIds.get(state.defaultUserTypeId) ?? schemaId)
          : schemaId,
    })),
    ...schemaRoutes(org, '/api/v1/meta/schemas/group/default', 'group_schema', () => ({
      collection: state.groupSchemas,
      key: 'default',
    })),
    ...schemaRoutes(org, '/api/v1/meta/schemas/apps/{appId}/default', 'app_user_schema', ({ appId }) => {
      if (!state.apps.has(appId)) throw notFound(appId, 'AppInstance');
      return { collection: state.appUserSchemas.of(appId), key: 'default' };
    }),
    ...collectionRoutes(
      {
        type: 'linked_object',
        kindName: 'LinkedObject',
        path: '/api/v1/meta/schemas/user/linkedObjects',
        idParam: 'linkedObjectName',
        idPrefix: '',
        scopeFamily: 'okta.linkedObjects',
        limits: PAGE_LIMITS.unpaged,
        collection: (o) => o.state.linkedObjects,
        keyFromBody: (body) => requireText(body, 'primary.name'),
        keyProperty: 'primary',
        stamps: [],
        defaults: (body) => {
          requireText(body, 'associated.name');
          return {};
        },
        createStatus: 201,
        updateMethods: [],
        deleteStatus: 204,
      },
      org,
    ),
  ];
}
