import { manageScopes, readScopes } from '@libs/simulators/okta/auth/principal.js';
import { notFound } from '@libs/simulators/okta/http/okta-error.js';
import { jsonText } from '@libs/simulators/kit/http/reply.js';
import { jsonBody } from '@libs/simulators/okta/http/request-body.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { listReply } from '@libs/simulators/okta/query/list-page.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import { replaced, type Entry, type Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaId } from '@libs/simulators/okta/store/okta-ids.js';
import type { OrgState } from '@libs/simulators/okta/store/org-state.js';
import { recordEvent, objectTarget } from './audit.js';

/** The user profile attributes Okta maps from a new identity provider's users (recorded for a Google IdP). */
const IDP_USER_ATTRIBUTES = [
  'login',
  'email',
  'firstName',
  'middleName',
  'lastName',
  'honorificPrefix',
  'honorificSuffix',
  'displayName',
  'profileUrl',
];

/**
 * The mappings Okta creates with an identity provider: one from its users to each user type of
 * the org (recorded: every recorded IdP lists one mapping per user type, listProfileMappings
 * ?sourceId=), and one back from the default user type (recorded: listProfileMappings of an org
 * with a Google IdP holds both). The default type's maps each attribute from the IdP user's, the
 * login from its email (recorded for a Google IdP); the others map nothing until an admin sets
 * them. An org
 * that holds no user type object (a recorded org whose types were never read) gets the mapping
 * to its default type.
 */
export function addIdentityProviderMappings(state: OrgState, idpId: string, idpType: string): void {
  const properties = Object.fromEntries(
    IDP_USER_ATTRIBUTES.map((name) => [
      name,
      { expression: `appuser.${name === 'login' ? 'email' : name}`, pushStatus: 'DONT_PUSH' },
    ]),
  );
  const types = [...state.userTypes.valuesInOrder()].map((type) => type.data);
  const targets = types.length > 0 ? types : [{ id: state.defaultUserTypeId, name: 'user', default: true }];
  const idp = { id: idpId, name: `${idpType.toLowerCase()}_idp`, type: 'appuser' };
  const add = (source: Json, target: Json, mapped: Json) => {
    const id = oktaId(ID_PREFIX.profileMapping);
    state.profileMappings.set(id, { data: { id, source, target, properties: mapped } });
  };
  for (const type of targets) {
    const userType = { id: type.id, name: type.name, type: 'user' };
    add(idp, userType, type.default === true ? properties : {});
    if (type.default === true) add(userType, idp, {});
  }
}

/** Removes the mappings from or to an object Okta deleted (an identity provider). */
export function dropMappingsOf(state: OrgState, objectId: string): void {
  for (const [id, mapping] of [...state.profileMappings.entries()])
    if ((mapping.data.source as Json).id === objectId || (mapping.data.target as Json).id === objectId)
      state.profileMappings.delete(id);
}

/** A mapping as getProfileMapping answers it, with its `self` link (recorded ones as recorded). */
export function profileMappingJson(entry: Entry, base: string): Json {
  const { data } = entry;
  if (data._links !== undefined) return data;
  return { ...data, _links: { self: { href: `${base}/api/v1/mappings/${String(data.id)}` } } };
}

/**
 * `/api/v1/mappings`: profile mappings between user types, apps and IdPs. Okta creates them
 * with their source or target (an app with provisioning, an IdP); the API lists them, by
 * `sourceId` / `targetId` too, as summaries without `properties`
 * (ListProfileMappings), answers one in full, and updates its property mappings by POST (a
 * property set to null is removed). There is no create or delete: identity providers add and
 * drop theirs (addIdentityProviderMappings, dropMappingsOf).
 */
export function profileMappingRoutes(org: OrgContext): Route[] {
  const read = { kind: 'admin', scopes: readScopes('okta.profileMappings') } as const;
  const write = { kind: 'admin', scopes: manageScopes('okta.profileMappings') } as const;
  const { state } = org;
  const existing = (id: string): Entry => {
    const entry = state.profileMappings.get(id);
    if (!entry) throw notFound(id, 'ProfileMapping');
    return entry;
  };
  const full = (entry: Entry) => entry.raw ?? JSON.stringify(profileMappingJson(entry, org.baseUrl));
  return [
    {
      method: 'GET',
      template: '/api/v1/mappings',
      access: read,
      handle: (context) => {
        const sourceId = context.url.searchParams.get('sourceId');
        const targetId = context.url.searchParams.get('targetId');
        const accept =
          sourceId || targetId
            ? (e: Entry) =>
                (!sourceId || (e.data.source as Json).id === sourceId) &&
                (!targetId || (e.data.target as Json).id === targetId)
            : undefined;
        return listReply(context, org.baseUrl, state.profileMappings, {
          limits: PAGE_LIMITS.profileMappings,
          params: ['sourceId', 'targetId'],
          accept,
          serialize: (e) => {
            const { properties: _properties, ...summary } = profileMappingJson(e, org.baseUrl);
            return JSON.stringify(summary);
          },
        });
      },
    },
    {
      method: 'GET',
      template: '/api/v1/mappings/{mappingId}',
      access: read,
      handle: ({ params }) => jsonText(200, full(existing(params.mappingId))),
    },
    {
      method: 'POST',
      template: '/api/v1/mappings/{mappingId}',
      access: write,
      handle: (context) => {
        const current = existing(context.params.mappingId);
        const properties = { ...((current.data.properties ?? {}) as Json) };
        for (const [key, value] of Object.entries((jsonBody(context).properties ?? {}) as Json)) {
          if (value === null) delete properties[key];
          else properties[key] = value;
        }
        const entry = replaced(current, { ...current.data, properties });
        state.profileMappings.set(context.params.mappingId, entry);
        recordEvent(org, 'mappings.update_mapping', 'Update profile mapping', [
          objectTarget('Mapping', entry.data),
        ]);
        return jsonText(200, full(entry));
      },
    },
  ];
}
