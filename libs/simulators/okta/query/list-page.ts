import { linkHeaders } from '@libs/simulators/okta/http/link-header.js';
import { validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { jsonArrayBytes, jsonText, type Reply } from '@libs/simulators/kit/http/reply.js';
import type { RequestContext } from '@libs/simulators/kit/http/router.js';
import {
  type OrderedCollection,
  UnknownCursorError,
} from '@libs/simulators/okta/store/ordered-collection.js';
import { effectiveLimit, type PageLimits } from './page-limits.js';

export interface ListOptions<T> {
  limits: PageLimits;
  /** The endpoint's own query parameters, in the order Okta repeats them in links. */
  params: readonly string[];
  accept?: (value: T) => boolean;
  /** JSON text of one item. */
  serialize: (value: T) => string;
  /**
   * The page is `{ [wrap]: [...], _links: { self, next? } }`, as the IAM APIs answer
   * (`{"roles": [...]}`), with the next page's URL in the body; no `Link` header.
   */
  wrap?: string;
}

/**
 * Answers a list call: one page (`limit`, `after`) of the collection, serialized item by item
 * (never the whole collection), with Okta's `Link` headers. A missing collection is an empty
 * list. An `after` this list never issued answers 400 E0000001.
 */
export function listReply<T>(
  context: RequestContext,
  baseUrl: string,
  collection: OrderedCollection<T> | undefined,
  options: ListOptions<T>,
): Reply {
  const query = context.url.searchParams;
  const limit = effectiveLimit(query.get('limit'), options.limits);
  const after = query.get('after') || undefined;
  let items: T[] = [];
  let nextCursor: string | undefined;
  if (collection) {
    try {
      ({ items, nextCursor } = collection.page(after, limit, options.accept));
    } catch (error) {
      if (error instanceof UnknownCursorError)
        throw validationFailed('after', `after: Invalid cursor ${error.cursor}`);
      throw error;
    }
  }
  const texts = items.map(options.serialize);
  const link = linkHeaders(baseUrl, context.url.pathname, query, options.params, { limit, nextCursor });
  if (options.wrap === undefined) return jsonText(200, jsonArrayBytes(texts), { Link: link });
  const links = parseLinkHeaders(link);
  const body = `{${JSON.stringify(options.wrap)}:[${texts.join(',')}],"_links":${JSON.stringify(links)}}`;
  return jsonText(200, body);
}

/** `{ self: { href }, next?: { href } }` from the Link headers of a page. */
function parseLinkHeaders(values: string[]): Record<string, { href: string }> {
  const links: Record<string, { href: string }> = {};
  for (const value of values) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(value);
    if (match) links[match[2]] = { href: match[1] };
  }
  return links;
}
