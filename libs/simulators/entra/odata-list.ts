import { json, type Reply } from '@libs/simulators/kit/http/reply.js';

import { badRequest } from './graph-error.js';

/** Graph's page size without `$top`, and the largest `$top` directory lists accept (Graph "Paging"; `group-list`: "1 and 999"). */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 999;
/** The most objects a page of a list read with `$expand` holds (listPage). */
export const EXPANDED_PAGE_SIZE = 100;

/**
 * The `$select` of a request: the property names asked for, or undefined for the default set.
 * Graph answers `null` for a selected property the object does not have, and drops the others.
 */
export function selectedProperties(url: URL): string[] | undefined {
  const raw = url.searchParams.get('$select');
  if (raw === null) return undefined;
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw badRequest('Invalid $select: expected a comma-separated list of properties.');
  return names;
}

/**
 * `object` as the request's `$select` shapes it: every selected property (null when absent) and
 * the `@odata.type` annotation a polymorphic member carries; the whole object without `$select`.
 */
export function project(
  object: Record<string, unknown>,
  select: string[] | undefined,
): Record<string, unknown> {
  if (!select) return object;
  const out: Record<string, unknown> = {};
  if ('@odata.type' in object) out['@odata.type'] = object['@odata.type'];
  for (const name of select) out[name] = object[name] ?? null;
  return out;
}

/**
 * One page of a collection (OData JSON 4.01 §12; Microsoft Graph "Paging Microsoft Graph data"):
 * `{ @odata.context, value, @odata.nextLink? }`. The next link carries the query options and an
 * opaque `$skiptoken` (here base64url of the offset): clients must follow it as is.
 *
 * @throws GraphError 400 for a `$top` outside 1..999 or a `$skiptoken` this list did not issue.
 */
export function listPage(
  url: URL,
  baseUrl: string,
  context: string,
  items: readonly Record<string, unknown>[],
  /** the properties returned without `$select` when the type has a default set (users) */
  defaults?: string[],
  /** relationships `$expand` asked for, which the items carry and `$select` keeps (OData 4.01 §5.1.3) */
  expanded: readonly string[] = [],
): Reply {
  const topRaw = url.searchParams.get('$top');
  const top = topRaw === null ? DEFAULT_PAGE_SIZE : Number(topRaw);
  if (!Number.isInteger(top) || top < 1 || top > MAX_PAGE_SIZE)
    throw badRequest(
      `Invalid page size specified: '${topRaw}'. Must be between 1 and ${MAX_PAGE_SIZE} inclusive.`,
    );
  // "$expand ... returns a maximum of 100 objects" a page on directory objects, whatever the $top
  // (learn.microsoft.com/graph/query-parameters#expand-parameter, and Graph's known-issues list, entry 13635).
  const size = expanded.length > 0 ? Math.min(top, EXPANDED_PAGE_SIZE) : top;
  const offset = skipOf(url.searchParams.get('$skiptoken'));
  const selected = selectedProperties(url) ?? defaults;
  const select = selected && expanded.length > 0 ? [...selected, ...expanded] : selected;
  const page = items.slice(offset, offset + size).map((item) => project(item, select));
  const body: Record<string, unknown> = {
    '@odata.context': `${baseUrl}/v1.0/$metadata#${context}`,
    value: page,
  };
  if (offset + size < items.length) {
    const next = new URL(url.pathname, baseUrl);
    for (const [name, value] of url.searchParams)
      if (name !== '$skiptoken') next.searchParams.set(name, value);
    next.searchParams.set(
      '$skiptoken',
      Buffer.from(JSON.stringify({ o: offset + size })).toString('base64url'),
    );
    body['@odata.nextLink'] = next.toString();
  }
  return json(200, body);
}

/** One object (GET of an entity or singleton) with its `@odata.context`, shaped by `$select`. */
export function entityReply(
  url: URL,
  baseUrl: string,
  context: string,
  object: Record<string, unknown>,
  defaults?: string[],
): Reply {
  const select = selectedProperties(url) ?? defaults;
  return json(200, { '@odata.context': `${baseUrl}/v1.0/$metadata#${context}`, ...project(object, select) });
}

/**
 * The relationships a request's `$expand` names (`manager($select=id)` -> `manager`), each one
 * `supported` has.
 * @throws GraphError 400 for one it has not, as Graph answers a property the type lacks
 */
export function expandedRelationships(url: URL, supported: readonly string[]): string[] {
  const raw = url.searchParams.get('$expand');
  if (raw === null) return [];
  const names: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of `${raw},`) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      names.push(current.split('(')[0].trim());
      current = '';
    } else current += char;
  }
  const unknown = names.find((name) => !supported.includes(name));
  if (unknown) throw badRequest(`Could not find a property named '${unknown}' to expand.`);
  return names;
}

function skipOf(token: string | null): number {
  if (token === null) return 0;
  try {
    const { o } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o: unknown };
    if (typeof o === 'number' && Number.isInteger(o) && o >= 0) return o;
  } catch {
    // falls through to the 400
  }
  throw badRequest('The $skiptoken is not valid.');
}
