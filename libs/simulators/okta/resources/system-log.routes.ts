import { readScopes } from '@libs/simulators/okta/auth/principal.js';
import { validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { jsonText } from '@libs/simulators/kit/http/reply.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { linkHeaders } from '@libs/simulators/okta/http/link-header.js';
import { effectiveLimit, PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import type { Entry } from '@libs/simulators/okta/store/entry.js';
import { UnknownCursorError } from '@libs/simulators/okta/store/ordered-collection.js';
import { listFilter } from './list-filter.js';

const DAY_MS = 24 * 3600 * 1000;

/** An ISO 8601 query value as epoch ms; 400 E0000001 naming the parameter otherwise. */
function instant(url: URL, name: string, fallback: number): number {
  const value = url.searchParams.get(name);
  if (value === null || value === '') return fallback;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw validationFailed(name, `${name}: Must be an ISO 8601 timestamp`);
  return ms;
}

/**
 * `GET /api/v1/logs` (listLogEvents, scope okta.logs.read): the events published in
 * [`since`, `until`) (defaults: 7 days before `until`, and now), restricted by `filter` (SCIM
 * expression, e.g. `eventType eq "group.lifecycle.delete"`) and `q` (keywords matched against
 * the display message, event type and targets), `limit` per page (default 100, at most 1000),
 * oldest first (`sortOrder=ASCENDING`, the default) or newest first.
 *
 * Paging follows the System Log's two modes (System Log API, "Polling requests"): a bounded
 * request (`until` given, or DESCENDING) has a `next` link only while events remain; a polling
 * request (ASCENDING without `until`) always has one, so a client can come back later for
 * events published since, and knows it has caught up when a page is empty.
 */
export function systemLogRoutes(org: OrgContext): Route[] {
  return [
    {
      method: 'GET',
      template: '/api/v1/logs',
      access: { kind: 'admin', scopes: readScopes('okta.logs') },
      handle: (context) => {
        const { url } = context;
        const query = url.searchParams;
        const until = instant(url, 'until', org.now());
        const since = instant(url, 'since', until - 7 * DAY_MS);
        const descending = query.get('sortOrder') === 'DESCENDING';
        const polling = !query.has('until') && !descending;
        const limit = effectiveLimit(query.get('limit'), PAGE_LIMITS.logs);
        const filter = listFilter(url, [
          'displayMessage',
          'eventType',
          'target.displayName',
          'target.alternateId',
        ]);
        // A default `until` is now: an event published this very millisecond is included.
        const bounded = query.has('until');
        const accept = (e: Entry) => {
          const published = Date.parse(String(e.data.published));
          return (
            published >= since &&
            (bounded ? published < until : published <= until) &&
            (!filter || filter(e.data))
          );
        };
        const events = org.state.systemLog.events;
        let items: Entry[];
        let nextCursor: string | undefined;
        try {
          if (descending) {
            // Few events are ever logged in a simulated org: reversing the matches is cheap.
            const all = [...events.valuesInOrder()].filter(accept).reverse();
            const after = query.get('after');
            const start = after ? all.findIndex((e) => e.data.uuid === after) + 1 : 0;
            items = all.slice(start, start + limit);
            nextCursor = start + limit < all.length ? String(items[items.length - 1]?.data.uuid) : undefined;
          } else {
            ({ items, nextCursor } = events.page(query.get('after') || undefined, limit, accept));
            const last = items[items.length - 1]?.data.uuid ?? query.get('after');
            if (polling && nextCursor === undefined && last) nextCursor = String(last);
          }
        } catch (error) {
          if (error instanceof UnknownCursorError)
            throw validationFailed('after', `after: Invalid cursor ${error.cursor}`);
          throw error;
        }
        const link = linkHeaders(
          org.baseUrl,
          url.pathname,
          query,
          ['since', 'until', 'filter', 'q', 'sortOrder'],
          {
            limit,
            nextCursor,
          },
        );
        return jsonText(200, `[${items.map((e) => JSON.stringify(e.data)).join(',')}]`, { Link: link });
      },
    },
  ];
}
