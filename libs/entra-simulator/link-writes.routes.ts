import type { Route } from '@libs/okta-simulator/http/router.js';

import { badRequest, GraphError, notFound } from './graph-error.js';
import { type GraphContext, graphRoute } from './graph-route.js';
import { jsonObjectBody } from './directory-writes.routes.js';
import type { ChildCollection, Collection } from './tenant-state.js';

/**
 * The id an `@odata.id` reference names (`https://graph.microsoft.com/v1.0/directoryObjects/{id}`),
 * the body of every `$ref` write ("Add member", "Add owners").
 * @throws GraphError 400 for another body
 */
export function referencedObjectId(bodyText: string): string {
  const reference = jsonObjectBody(bodyText)['@odata.id'];
  const id = typeof reference === 'string' ? /\/directoryObjects\/([^/?]+)$/.exec(reference)?.[1] : undefined;
  if (!id) throw badRequest("Invalid object identifier in '@odata.id'.");
  return id;
}

/**
 * `POST /v1.0/<parentPath>/{id}/<property>/$ref` and `DELETE .../<property>/{memberId}/$ref` for a
 * link collection stored as `{ id }` children ("Add owners" and "Remove owner" of a group or an
 * application, "Add a member" and "Remove a member" of an administrative unit): 204; a link that
 * exists already is a 400 `Request_BadRequest` ("One or more added object references already
 * exist"), an unknown parent or object a 404.
 */
export function linkWriteRoutes(
  graph: GraphContext,
  link: {
    parentPath: string;
    parents: Collection;
    children: ChildCollection;
    property: string;
    roles: readonly string[];
  },
): Route[] {
  const { state } = graph;
  const path = `/v1.0/${link.parentPath}/{id}/${link.property}`;
  return [
    graphRoute(graph, 'POST', `${path}/$ref`, link.roles, ({ params, bodyText }) => {
      if (!state.collection(link.parents).has(params.id)) throw notFound(params.id);
      const objectId = referencedObjectId(bodyText);
      if (!state.directoryObjectType(objectId)) throw notFound(objectId);
      if (state.childrenOf(link.children, params.id).some((child) => child.id === objectId))
        throw new GraphError(
          400,
          'Request_BadRequest',
          `One or more added object references already exist for the following modified properties: '${link.property}'.`,
        );
      state.addChild(link.children, params.id, { id: objectId });
      return { status: 204 };
    }),
    graphRoute(graph, 'DELETE', `${path}/{memberId}/$ref`, link.roles, ({ params }) => {
      if (!state.collection(link.parents).has(params.id)) throw notFound(params.id);
      if (!state.removeChild(link.children, params.id, params.memberId)) throw notFound(params.memberId);
      return { status: 204 };
    }),
  ];
}
