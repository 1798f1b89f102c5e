import type { ResourceRecord } from '@libs/records/resource-record.js';

import {
  ENTRA_RESOURCE_TYPES,
  ENTRA_TYPE_DEFINITIONS,
  type EntraResourceType,
} from './entra-resource-catalog.js';
import type { GraphObject } from './graph-object.js';

/** Per parent type, the members of its answer that embedded child types keep (`embeddedIn`). */
const EMBEDDED_MEMBERS = new Map<EntraResourceType, string[]>();
for (const type of ENTRA_RESOURCE_TYPES) {
  const { parent, embeddedIn } = ENTRA_TYPE_DEFINITIONS[type];
  if (parent && embeddedIn)
    EMBEDDED_MEMBERS.set(parent, [...(EMBEDDED_MEMBERS.get(parent) ?? []), embeddedIn]);
}

/**
 * A top-level object as a record: its id (ENTRA_TYPE_DEFINITIONS `id`, else Graph's), its name,
 * and Graph's JSON less the members an embedded child type keeps (`embeddedIn`).
 */
export function entraRecord(type: EntraResourceType, object: GraphObject): ResourceRecord {
  const definition = ENTRA_TYPE_DEFINITIONS[type];
  let data = object;
  const embedded = EMBEDDED_MEMBERS.get(type);
  if (embedded) {
    data = { ...object };
    for (const member of embedded) delete data[member];
  }
  return {
    type,
    id: String((definition.id ?? ((o: GraphObject) => o.id))(object)),
    name: (definition.name(object) as string | null | undefined) ?? null,
    data,
  };
}

/**
 * An object read under a parent as a record `<parentId>:<id>`: a link (members, owners) as
 * `{ <parentKey>, <key>Id, <key>Type }` with the type from its `@odata.type`; any other child as
 * Graph returns it.
 */
export function entraChildRecord(
  type: EntraResourceType,
  parentId: string,
  object: GraphObject,
): ResourceRecord {
  const definition = ENTRA_TYPE_DEFINITIONS[type];
  const childId = String(object.id);
  const { link } = definition;
  return {
    type,
    id: `${parentId}:${childId}`,
    name: link ? null : ((definition.name(object) as string | null | undefined) ?? null),
    data: link
      ? {
          [link.parentKey]: parentId,
          [`${link.key}Id`]: childId,
          [`${link.key}Type`]: String(object['@odata.type'] ?? '').replace('#microsoft.graph.', ''),
        }
      : object,
  };
}
