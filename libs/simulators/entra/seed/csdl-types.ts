import { readFile } from 'node:fs/promises';

/** An entity or complex type of Graph's CSDL: its base type and its members' types. */
export interface StructuredType {
  base?: string;
  /** property (structural or navigation) name -> its type, e.g. `Collection(graph.x)` */
  members: Map<string, string>;
}

/** The structured types of Graph's `microsoft.graph` namespace, by name (`conditionalAccessPolicy`). */
export type GraphTypes = ReadonlyMap<string, StructuredType>;

/**
 * The entity and complex types of the `microsoft.graph` namespace of a CSDL document (Graph v1.0:
 * ../shared/fixtures/entra/msgraph-metadata, SOURCE.md), read with patterns (the document is
 * machine-written, one element a line): names, base types, properties and navigation properties.
 */
export async function readGraphTypes(file: string): Promise<GraphTypes> {
  const text = await readFile(file, 'utf8');
  const graph = text.slice(0, text.indexOf('</Schema>'));
  const types = new Map<string, StructuredType>();
  const typePattern =
    /<(EntityType|ComplexType) Name="(\w+)"([^>]*?)(\/)?>([\s\S]*?)(?=<(?:EntityType|ComplexType|EnumType|Function|Action|EntityContainer|Term|Annotations)\b|$)/g;
  for (const match of graph.matchAll(typePattern)) {
    const members = new Map<string, string>();
    for (const member of (match[5] ?? '').matchAll(/<(?:Navigation)?Property Name="(\w+)" Type="([^"]+)"/g))
      members.set(member[1], member[2]);
    types.set(match[2], { base: /BaseType="graph\.(\w+)"/.exec(match[3])?.[1], members });
  }
  return types;
}

/**
 * `value` as Graph's type `typeName` declares it: members no type of the chain (the type, or
 * the derived type its `@odata.type` names, and their bases) declares are left out, at any depth
 * through complex types and collections; their paths are pushed onto `dropped`. OData
 * annotations are kept; primitives and enums pass as they are, as do types the CSDL does not hold.
 */
export function keepDeclared(
  types: GraphTypes,
  typeName: string,
  value: unknown,
  dropped: string[],
  path = '',
): unknown {
  if (Array.isArray(value))
    return value.map((item, i) => keepDeclared(types, typeName, item, dropped, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const cast =
    typeof object['@odata.type'] === 'string'
      ? object['@odata.type'].replace('#microsoft.graph.', '')
      : undefined;
  const name = cast ?? typeName;
  if (!types.has(name)) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(object)) {
    if (key.startsWith('@odata.')) {
      kept[key] = member;
      continue;
    }
    const declared = memberType(types, name, key);
    if (declared === undefined) {
      dropped.push(`${path}/${key}`);
      continue;
    }
    const inner = /^(?:Collection\()?graph\.(\w+)\)?$/.exec(declared)?.[1];
    kept[key] = inner ? keepDeclared(types, inner, member, dropped, `${path}/${key}`) : member;
  }
  return kept;
}

function memberType(types: GraphTypes, name: string, key: string): string | undefined {
  for (let type = types.get(name); type; type = type.base ? types.get(type.base) : undefined) {
    const found = type.members.get(key);
    if (found) return found;
  }
  return undefined;
}
