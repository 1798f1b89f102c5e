import type { ResourceRecord } from '@libs/records/resource-record.js';

import {
  ENTRA_RESOURCE_TYPES,
  ENTRA_TYPE_DEFINITIONS,
  type EntraResourceType,
  type EntraTypeDefinition,
} from './entra-resource-catalog.js';
import type { GraphObject } from './graph-object.js';

/** Per parent type, the members of its answer that embedded types keep (`embedded`'s `member`). */
const EMBEDDED_MEMBERS = new Map<EntraResourceType, string[]>();
for (const type of ENTRA_RESOURCE_TYPES) {
  const definition = ENTRA_TYPE_DEFINITIONS[type];
  if (definition.kind === 'embedded')
    EMBEDDED_MEMBERS.set(definition.parent, [
      ...(EMBEDDED_MEMBERS.get(definition.parent) ?? []),
      definition.member,
    ]);
}

/**
 * A top-level object as a record: its id (ENTRA_TYPE_DEFINITIONS `key`, a singleton's `id`
 * when it answers none, else Graph's), its name, and Graph's JSON less the members an embedded
 * type keeps (`embedded`).
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
    id: recordId(definition, object),
    name: definition.name(object),
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
    name: link ? null : definition.name(object),
    data: link
      ? {
          [link.parentKey]: parentId,
          [`${link.key}Id`]: childId,
          [`${link.key}Type`]: String(object['@odata.type'] ?? '').replace('#microsoft.graph.', ''),
        }
      : object,
  };
}

/** A top-level object's record id: its `key`, else a singleton's `id`, else Graph's `id`. */
function recordId(definition: EntraTypeDefinition, object: GraphObject): string {
  const key = 'key' in definition ? definition.key?.(object) : undefined;
  if (key !== undefined && key !== null) return key;
  return definition.kind === 'single' ? definition.id : String(object.id);
}
