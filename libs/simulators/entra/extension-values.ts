import { json } from '@libs/simulators/kit/http/reply.js';
import type { Route } from '@libs/simulators/kit/http/router.js';

import { GraphError } from './graph-error.js';
import { type GraphContext, graphRoute } from './graph-route.js';
import { jsonObjectBody } from './json-body.js';
import type { GraphObject, TenantState } from './tenant-state.js';

/**
 * Directory (Microsoft Entra ID) extensions as Microsoft Graph v1.0 holds them
 * (https://learn.microsoft.com/graph/extensibility-overview#directory-microsoft-entra-extensions):
 * each extensionProperty of an application (`extension_<appId without dashes>_<name>`) adds a
 * property of that name to the objects of its `targetObjects`, set with a PATCH of the object
 * (null removes it) and returned only when named in `$select`.
 */

/** A directory extension attribute's name: `extension_<32 hex digits>_<name>`. */
const EXTENSION_NAME = /^extension_[0-9a-f]{32}_[A-Za-z0-9_]+$/;

/** The tenant's extension properties, of every application. */
export function extensionProperties(state: TenantState): GraphObject[] {
  return [...state.collection('applications').keys()].flatMap((appId) =>
    state.childrenOf('extensionProperties', appId),
  );
}

/**
 * The directory extension attributes of a PATCH `body` of an object of `target` (`User`): each
 * one's name is the name of one of the tenant's extension properties that targets it.
 * @throws GraphError 400 `Request_BadRequest` for an `extension_` member the tenant does not
 *   declare for `target` (Graph: "Property '...' does not exist as a declared property or
 *   extension property.")
 */
export function extensionChanges(
  state: TenantState,
  body: Record<string, unknown>,
  target: string,
): Record<string, unknown> {
  const declared = new Set(
    extensionProperties(state)
      .filter(({ targetObjects }) => Array.isArray(targetObjects) && targetObjects.includes(target))
      .map(({ name }) => String(name)),
  );
  const changes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (!name.startsWith('extension_')) continue;
    if (!EXTENSION_NAME.test(name) || !declared.has(name))
      throw new GraphError(
        400,
        'Request_BadRequest',
        `Property '${name}' does not exist as a declared property or extension property.`,
      );
    changes[name] = value;
  }
  return changes;
}

/**
 * `POST /directoryObjects/getAvailableExtensionProperties` ("directoryObject:
 * getAvailableExtensionProperties", https://learn.microsoft.com/graph/api/directoryobject-getavailableextensionproperties):
 * every extension property of the tenant, or only those synced from on-premises when
 * `isSyncedFromOnPremises` is true (the simulator's are all cloud ones); Directory.Read.All.
 */
export function extensionPropertyRoutes(graph: GraphContext): Route[] {
  const readers = ['Directory.Read.All', 'Directory.ReadWrite.All'];
  return [
    graphRoute(
      graph,
      'POST',
      '/v1.0/directoryObjects/getAvailableExtensionProperties',
      readers,
      ({ bodyText }) => {
        const body = bodyText.trim() === '' ? {} : jsonObjectBody(bodyText);
        const synced = body.isSyncedFromOnPremises === true;
        return json(200, {
          '@odata.context': `${graph.baseUrl}/v1.0/$metadata#Collection(microsoft.graph.extensionProperty)`,
          value: extensionProperties(graph.state).filter(
            ({ isSyncedFromOnPremises }) => (isSyncedFromOnPremises === true) === synced,
          ),
        });
      },
    ),
  ];
}
