import type { Route } from '@libs/simulators/kit/http/router.js';

import { badRequest, GraphError, notFound } from './graph-error.js';
import { type GraphContext, graphRoute } from './graph-route.js';
import { jsonObjectBody } from './json-body.js';
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

/** A link collection under a parent: `POST .../{id}/<segment>/$ref` and `DELETE .../{id}/<segment>/{ref}/$ref`. */
export interface LinkWrites {
  parentPath: string;
  parent: Collection;
  segment: string;
  /** where the links are stored, as `{ id }` children */
  children: ChildCollection;
  roles: readonly string[];
  /** the `@odata.type`s a link may point to (`#microsoft.graph.user`...) */
  accepts: readonly string[];
}

/**
 * Adding a link ("Add owners" of a group or an application, "Add a member" of an administrative
 * unit: 204 No Content; 400 when the object is already linked, "One or more added object
 * references already exist", or of a type the relationship does not take; 404 for an unknown
 * parent or object) and removing one ("Remove owner", "Remove a member": 204; 404 when not linked).
 */
export function linkWriteRoutes(graph: GraphContext, links: LinkWrites): Route[] {
  const { state } = graph;
  const base = `/v1.0/${links.parentPath}/{id}/${links.segment}`;
  return [
    graphRoute(graph, 'POST', `${base}/$ref`, links.roles, ({ params, bodyText }) => {
      if (!state.collection(links.parent).has(params.id)) throw notFound(params.id);
      const linkedId = referencedObjectId(bodyText);
      const type = state.directoryObjectType(linkedId);
      if (!type) throw notFound(linkedId);
      if (!links.accepts.includes(type))
        throw badRequest(`An object of type '${type}' cannot be added to '${links.segment}'.`);
      if (state.childrenOf(links.children, params.id).some(({ id }) => id === linkedId))
        throw new GraphError(
          400,
          'Request_BadRequest',
          `One or more added object references already exist for the following modified properties: '${links.segment}'.`,
        );
      state.addChild(links.children, params.id, { id: linkedId });
      return { status: 204 };
    }),
    graphRoute(graph, 'DELETE', `${base}/{ref}/$ref`, links.roles, ({ params }) => {
      if (!state.collection(links.parent).has(params.id)) throw notFound(params.id);
      if (!state.removeChild(links.children, params.id, params.ref)) throw notFound(params.ref);
      return { status: 204 };
    }),
  ];
}
