import { invalidSearch } from '@libs/simulators/okta/http/okta-error.js';
import {
  compileFilter,
  FilterSyntaxError,
  type FilterRules,
  type Predicate,
} from '@libs/simulators/okta/query/filter-expression.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';

/** How an endpoint reads `filter` and `search`, when it departs from the full grammar. */
export interface ListFilterOptions {
  /** `search` is a plain keyword contained in one of these fields (the Group Rules API). */
  keywordSearch?: readonly string[];
  /** The properties and operators `filter` accepts (`search` takes the whole grammar). */
  filterRules?: FilterRules;
}

/**
 * The restriction a list request asks for through `filter` and `search` (both compiled by
 * {@link compileFilter}; when both are given, both must hold) and `q`, a case-insensitive
 * prefix match on `qFields` (dotted paths, e.g. `profile.name`). Undefined when the request
 * asks for everything. Throws 400 E0000031 for an expression outside the supported grammar or
 * outside `filterRules`.
 */
export function listFilter(
  url: URL,
  qFields: readonly string[] = ['name'],
  { keywordSearch, filterRules }: ListFilterOptions = {},
): Predicate | undefined {
  const terms: Predicate[] = [];
  const keyword = keywordSearch && url.searchParams.get('search')?.toLowerCase();
  if (keywordSearch && keyword) terms.push(anyField(keywordSearch, (v) => v.includes(keyword)));
  for (const name of keywordSearch ? ['filter'] : ['filter', 'search']) {
    const expression = url.searchParams.get(name);
    if (!expression) continue;
    try {
      terms.push(compileFilter(expression, name === 'filter' ? filterRules : undefined));
    } catch (error) {
      if (error instanceof FilterSyntaxError) throw invalidSearch(`${name}: ${error.message}`);
      throw error;
    }
  }
  const q = url.searchParams.get('q')?.toLowerCase();
  if (q) terms.push(anyField(qFields, (v) => v.startsWith(q)));
  if (terms.length === 0) return undefined;
  return terms.length === 1 ? terms[0] : (data) => terms.every((t) => t(data));
}

function read(data: Json, path: string[]): unknown {
  let value: unknown = data;
  for (const key of path)
    value = value !== null && typeof value === 'object' ? (value as Json)[key] : undefined;
  return value;
}

/** True when any of the fields (or any element of an array field) passes `test`, lowercased. */
function anyField(fields: readonly string[], test: (value: string) => boolean): Predicate {
  const paths = fields.map((field) => field.split('.'));
  const matches = (value: unknown): boolean =>
    Array.isArray(value) ? value.some(matches) : typeof value === 'string' && test(value.toLowerCase());
  return (data) => paths.some((path) => matches(read(data, path)));
}
