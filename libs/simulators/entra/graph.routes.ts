import { json } from '@libs/simulators/kit/http/reply.js';
import type { Route } from '@libs/simulators/kit/http/router.js';

import { GRAPH_RESOURCE } from './app-registrations.js';
import { applicationWriteRoutes } from './application-writes.routes.js';
import { extensionPropertyRoutes } from './extension-values.js';
import { GraphError, notFound } from './graph-error.js';
import { deltaPage } from './delta-query.js';
import { type GraphContext, graphRoute } from './graph-route.js';
import {
  deletedItemsRoutes,
  directoryWriteRoutes,
  objectWriteRoutes,
  recoveryJobsRoute,
} from './directory-writes.routes.js';
import { entityReply, expandedRelationships, listPage } from './odata-list.js';
import { roleWriteRoutes } from './role-writes.routes.js';
import { policyWriteRoutes } from './policy-writes.routes.js';
import { USER_DEFAULT_PROPERTIES } from './seed/users.js';
import { managerOf } from './dependency-objects.js';
import type { Collection, GraphObject } from './tenant-state.js';

export type { GraphContext } from './graph-route.js';

/** A collection and one of its objects: `GET /v1.0/<path>` and `GET /v1.0/<path>/{id}`. */
export function collectionRoutes(
  graph: GraphContext,
  path: string,
  collection: Collection,
  context: string,
  roles: readonly string[],
  defaults?: string[],
  /** relationships the list expands (`$expand`), each object's value of it */
  expand: Readonly<Record<string, (object: GraphObject) => unknown>> = {},
): Route[] {
  const objects = graph.state.collection(collection);
  return [
    graphRoute(graph, 'GET', `/v1.0/${path}`, roles, ({ url }) => {
      const expanded = expandedRelationships(url, Object.keys(expand));
      const items = [...objects.values()].map((object) =>
        expanded.length === 0
          ? object
          : { ...object, ...Object.fromEntries(expanded.map((name) => [name, expand[name](object)])) },
      );
      return listPage(url, graph.baseUrl, context, items, defaults, expanded);
    }),
    graphRoute(graph, 'GET', `/v1.0/${path}/{id}`, roles, ({ url, params }) => {
      const object = objects.get(params.id);
      if (!object) throw notFound(params.id);
      return entityReply(url, graph.baseUrl, `${context}/$entity`, object, defaults);
    }),
  ];
}

/** A singleton: `GET /v1.0/<path>`. */
export function singletonRoute(
  graph: GraphContext,
  path: string,
  collection: Collection,
  context: string,
  roles: readonly string[],
): Route {
  return graphRoute(graph, 'GET', `/v1.0/${path}`, roles, ({ url }) => {
    const [object] = graph.state.collection(collection).values();
    if (!object) throw notFound(path);
    return entityReply(url, graph.baseUrl, context, object);
  });
}

/**
 * The Graph v1.0 reads the simulator serves, each with the application permissions Microsoft's
 * API reference lists for it:
 * - users (`user-list`: User.Read.All, Directory.Read.All...), groups (`group-list`:
 *   Group.Read.All, GroupMember.Read.All...), members (`group-list-members`: GroupMember.Read.All,
 *   Group.Read.All...): members come as directory objects with their `@odata.type`;
 * - conditional access policies and named locations (`conditionalaccessroot-list-policies`,
 *   `conditionalaccessroot-list-namedlocations`: Policy.Read.All, Policy.Read.ConditionalAccess...);
 * - the authorization policy (`authorizationpolicy-get`: Policy.Read.All), the authentication
 *   methods policy (`authenticationmethodspolicy-get`: Policy.Read.AuthenticationMethod), whose
 *   answer includes its `authenticationMethodConfigurations` as the reference's example shows;
 * - the organization (`organization-list`: Organization.Read.All...) and domains (`domain-list`:
 *   Domain.Read.All...).
 */
export function graphRoutes(graph: GraphContext): Route[] {
  const users = ['User.Read.All', 'User.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'];
  const groups = [
    'Group.Read.All',
    'GroupMember.Read.All',
    'Group.ReadWrite.All',
    'Directory.Read.All',
    'Directory.ReadWrite.All',
  ];
  const conditionalAccess = [
    'Policy.Read.ConditionalAccess',
    'Policy.Read.All',
    'Policy.ReadWrite.ConditionalAccess',
  ];
  const { state } = graph;
  return [
    // "List users": `$expand=manager` gives each user's manager (user-list, optional query parameters)
    ...collectionRoutes(graph, 'users', 'users', 'users', users, USER_DEFAULT_PROPERTIES, {
      manager: (user) => managerOf(state, user.id),
    }),
    ...collectionRoutes(graph, 'groups', 'groups', 'groups', groups),
    // "user: delta" and "group: delta" take the list's permissions.
    graphRoute(graph, 'GET', '/v1.0/users/delta', users, ({ url }) =>
      deltaPage(
        state,
        graph.baseUrl,
        { collection: 'users', context: 'users', defaults: USER_DEFAULT_PROPERTIES },
        url,
      ),
    ),
    graphRoute(graph, 'GET', '/v1.0/groups/delta', groups, ({ url }) =>
      deltaPage(state, graph.baseUrl, { collection: 'groups', context: 'groups', members: true }, url),
    ),
    ...directoryWriteRoutes(graph),
    ...policyWriteRoutes(graph),
    ...deletedItemsRoutes(graph),
    ...objectWriteRoutes(graph),
    recoveryJobsRoute(graph),
    ...applicationWriteRoutes(graph),
    ...extensionPropertyRoutes(graph),
    ...roleWriteRoutes(graph),
    graphRoute(graph, 'GET', '/v1.0/groups/{id}/members', groups, ({ url, params }) => {
      if (!state.collection('groups').has(params.id)) throw notFound(params.id);
      const members = (state.members.get(params.id) ?? []).map((id) => {
        const type = state.directoryObjectType(id)!;
        const object = state.collection(type === '#microsoft.graph.user' ? 'users' : 'groups').get(id)!;
        return { '@odata.type': type, ...object };
      });
      return listPage(url, graph.baseUrl, 'directoryObjects', members);
    }),
    ...collectionRoutes(
      graph,
      'identity/conditionalAccess/policies',
      'conditionalAccessPolicies',
      'identity/conditionalAccess/policies',
      conditionalAccess,
    ),
    ...collectionRoutes(
      graph,
      'identity/conditionalAccess/namedLocations',
      'namedLocations',
      'identity/conditionalAccess/namedLocations',
      conditionalAccess,
    ),
    singletonRoute(
      graph,
      'policies/authorizationPolicy',
      'authorizationPolicy',
      'policies/authorizationPolicy/$entity',
      ['Policy.Read.All', 'Policy.ReadWrite.Authorization'],
    ),
    singletonRoute(
      graph,
      'policies/authenticationMethodsPolicy',
      'authenticationMethodsPolicy',
      'policies/authenticationMethodsPolicy/$entity',
      ['Policy.Read.AuthenticationMethod', 'Policy.ReadWrite.AuthenticationMethod'],
    ),
    ...collectionRoutes(graph, 'organization', 'organization', 'organization', [
      'Organization.Read.All',
      'Organization.ReadWrite.All',
      'Directory.Read.All',
      'Directory.ReadWrite.All',
    ]),
    ...collectionRoutes(graph, 'domains', 'domains', 'domains', [
      'Domain.Read.All',
      'Domain.ReadWrite.All',
      'Directory.Read.All',
      'Directory.ReadWrite.All',
    ]),
  ];
}

/** RFC 7521 §4.2: the `client_assertion_type` of a JWT client assertion. */
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * `POST /{tenant}/oauth2/v2.0/token`, the client credentials grant of the Microsoft identity
 * platform ("OAuth 2.0 client credentials flow"): `grant_type=client_credentials`,
 * `scope=https://graph.microsoft.com/.default`, the client's id and secret in the form
 * (`client_id`, `client_secret`) or, as RFC 6749 §2.3.1 allows and the reference says is
 * supported, in a Basic `Authorization` header; or, with a certificate ("second case: access token
 * request with a certificate"), `client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer`
 * and a `client_assertion` signed by a certificate of the registration (AppRegistrations
 * `issueForAssertion`). The tenant is its GUID or a verified domain.
 */
export function tokenRoute(graph: GraphContext): Route {
  return {
    method: 'POST',
    template: '/{tenant}/oauth2/v2.0/token',
    access: { kind: 'public' },
    async handle({ params, headers, bodyText }) {
      const { state } = graph;
      if (params.tenant !== state.tenantId && !state.domainNames().includes(params.tenant.toLowerCase()))
        throw new GraphError(400, 'invalid_request', `Tenant '${params.tenant}' not found.`, {
          aadsts: 90002,
        });
      const form = new URLSearchParams(bodyText);
      if (form.get('grant_type') !== 'client_credentials')
        throw new GraphError(
          400,
          'unsupported_grant_type',
          "The provided value for the input parameter 'grant_type' is not valid.",
          { aadsts: 70003 },
        );
      if (form.get('scope') !== `${GRAPH_RESOURCE}/.default`)
        throw new GraphError(
          400,
          'invalid_scope',
          `The provided value for scope ${form.get('scope') ?? ''} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`,
          { aadsts: 1002012 },
        );
      const assertionType = form.get('client_assertion_type');
      if (assertionType !== null) {
        if (assertionType !== JWT_BEARER)
          throw new GraphError(
            400,
            'invalid_request',
            `The client_assertion_type '${assertionType}' is not supported.`,
            {
              aadsts: 50027,
            },
          );
        const tokenUrl = `${graph.baseUrl}/${params.tenant}/oauth2/v2.0/token`;
        return json(
          200,
          await graph.apps.issueForAssertion(
            form.get('client_id'),
            form.get('client_assertion') ?? '',
            tokenUrl,
          ),
        );
      }
      const basic = /^Basic (\S+)$/i.exec(headers.authorization ?? '')?.[1];
      let clientId = form.get('client_id');
      let clientSecret = form.get('client_secret');
      if (basic) {
        const decoded = Buffer.from(basic, 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
        clientSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
      }
      if (!clientId || !clientSecret)
        throw new GraphError(
          401,
          'invalid_client',
          "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
          { aadsts: 7000218 },
        );
      return json(200, graph.apps.issue(clientId, clientSecret));
    },
  };
}
