import type { EntraTopDefinition, EntraTypeDefinition } from './entra-catalog-types.js';
import { ENTRA_RESOURCE_TYPES, type EntraResourceType } from './entra-resource-types.js';
import type { GraphObject } from './graph-object.js';

/**
 * One listing of a collection serving several types (ENTRA_TYPE_DEFINITIONS `sharedWith`): a
 * full backup reads `/users` once with `$select` of the union of the types' properties and the
 * relationships they expand (`$expand=manager($select=id)`), and makes each type's records from
 * the same objects, each object cut to what the type's own read would have answered ("List
 * users": `$select` and `$expand` are supported together; an expanded list's pages hold at most
 * 100 objects, learn.microsoft.com/graph/query-parameters#expand-parameter).
 */
export interface SharedListing {
  /** the `$select` of the one read: the owner's properties, then each sharing type's */
  select: string[];
  /** the query of the one read: the owner's, with the sharing types' `$expand`s joined */
  query: Record<string, string>;
  /** per type (the owner's first), the properties its own read answers, in that read's order */
  properties: Array<{ type: EntraResourceType; properties: readonly string[] }>;
}

/**
 * Types whose records `owner`'s listing gives too, among `collected` (those ENTRA_TYPE_DEFINITIONS
 * declares `sharedWith: owner`); none when `owner` is not collected whole.
 */
export function sharingTypes(
  definitions: Readonly<Record<EntraResourceType, EntraTypeDefinition>>,
  owner: EntraResourceType,
  collected: ReadonlySet<EntraResourceType>,
): EntraResourceType[] {
  return ENTRA_RESOURCE_TYPES.filter((type) => {
    const definition = definitions[type];
    return collected.has(type) && definition.kind === 'top' && definition.sharedWith === owner;
  });
}

/** The one read of `owner` and the types in `sharing` (top-level lists of the same collection). */
export function sharedListing(
  definitions: Readonly<Record<EntraResourceType, EntraTypeDefinition>>,
  owner: EntraResourceType,
  sharing: readonly EntraResourceType[],
): SharedListing {
  const tops = [owner, ...sharing].map((type) => ({
    type,
    definition: definitions[type] as EntraTopDefinition,
  }));
  const expands = tops.flatMap(({ definition }) => expandOf(definition) ?? []);
  const ownerQuery = tops[0].definition.query ?? {};
  return {
    select: [...new Set(tops.flatMap(({ definition }) => definition.select ?? []))],
    query:
      expands.length > 0
        ? { ...stringQuery(ownerQuery), $expand: expands.join(',') }
        : stringQuery(ownerQuery),
    properties: tops.map(({ type, definition }) => ({
      type,
      properties: [...(definition.select ?? []), ...expandedNames(expandOf(definition))],
    })),
  };
}

/**
 * `object` as the type's own read answers it: its `@odata.type` when it has one, then each of
 * `properties` it holds, in that order (a selected property without a value is there as null).
 */
export function answeredPart(object: GraphObject, properties: readonly string[]): GraphObject {
  const part: GraphObject = {};
  if ('@odata.type' in object) part['@odata.type'] = object['@odata.type'];
  for (const name of properties) if (name in object) part[name] = object[name];
  return part;
}

function stringQuery(query: Readonly<Record<string, string | number>>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, String(value)]));
}

function expandOf(definition: EntraTopDefinition): string | undefined {
  const expand = definition.query?.$expand;
  return expand === undefined ? undefined : String(expand);
}

/** The relationships an `$expand` names: `manager($select=id),rules` -> `manager`, `rules`. */
function expandedNames(expand: string | undefined): string[] {
  if (!expand) return [];
  const names: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of expand) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      names.push(current);
      current = '';
    } else current += char;
  }
  names.push(current);
  return names.map((name) => name.split('(')[0].trim()).filter((name) => name !== '');
}
