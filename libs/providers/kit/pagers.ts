import type { TransportResponse } from './http-transport.js';
import { nextLinkUrl } from './link-header.js';

/** One page read from an answer: its items, and the URL of the next page (null on the last). */
export interface ReadPage<T> {
  page: T;
  next: URL | null;
}

/** How a paged list is fetched and read, for `followPages`. */
export interface PagedList<T> {
  /** The first page's URL. */
  first: URL;
  /** Sends one GET (through the transport, so every next URL passes the SSRF guard). */
  fetch: (url: URL) => Promise<TransportResponse>;
  /** Reads a 200 answer of `url` into its page and the next URL (a pager below, or the provider's). */
  read: (response: TransportResponse, url: URL) => ReadPage<T>;
  /** The error for an answer other than 200 (with the provider's own error body). */
  failure: (response: TransportResponse) => Error;
  /** Statuses that mean "nothing to list" when they answer the first page (a parent deleted since). */
  emptyOn?: readonly number[];
  /**
   * Whether an answer to the first page means "nothing to list" by its body (Okta's E0000015: the
   * org lacks the feature the list belongs to, so it holds none).
   */
  emptyWhen?: (response: TransportResponse) => boolean;
  signal?: AbortSignal;
}

/**
 * Yields each page of a list as it arrives, following the next URLs its reader finds, so a
 * caller never holds more than one page.
 *
 * @throws `failure(response)` for an answer other than 200 (or `emptyOn`, `emptyWhen` on the first page);
 *   what `read` throws; the signal's reason when aborted between pages.
 */
export async function* followPages<T>(list: PagedList<T>): AsyncGenerator<T> {
  let url: URL | null = list.first;
  let first = true;
  while (url) {
    list.signal?.throwIfAborted();
    const response = await list.fetch(url);
    if (first && (list.emptyOn?.includes(response.status) || list.emptyWhen?.(response))) return;
    first = false;
    if (response.status !== 200) throw list.failure(response);
    const { page, next } = list.read(response, url);
    yield page;
    url = next;
  }
}

/**
 * The next page named by the answer's `Link: <...>; rel="next"` header (RFC 8288; Okta API
 * "Pagination"), resolved against the request URL; null on the last page.
 */
export function linkHeaderNext(response: TransportResponse, url: URL): URL | null {
  return nextLinkUrl(response.headers['link'], url);
}

/** One page of an OData collection (Microsoft Graph): its items and where the paging goes on. */
export interface ODataPage {
  items: Record<string, unknown>[];
  /** `@odata.nextLink`: the next page, followed as an opaque URL; null on the last page. */
  next: URL | null;
  /** `@odata.deltaLink` on the last page of a delta query: where the next sync starts. */
  deltaLink: string | null;
}

/**
 * Reads an OData collection body, `{ "value": [...], "@odata.nextLink": "https://..." }`
 * (OData JSON Format 4.01 §4.5.5 and §12; Microsoft Graph "Paging": follow `@odata.nextLink`
 * as is, without rebuilding it, until it is absent; a delta query ends with `@odata.deltaLink`
 * instead). Links are resolved against the request URL, which OData allows to be relative.
 *
 * @returns null when the body is not such an object (no `value` array of objects, a link that
 *   is not a string or not a URL), for the caller to report with its own error.
 */
export function readODataPage(body: unknown, url: URL): ODataPage | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const {
    value,
    '@odata.nextLink': nextLink,
    '@odata.deltaLink': deltaLink,
  } = body as Record<string, unknown>;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'object' && item !== null)) return null;
  if (nextLink !== undefined && typeof nextLink !== 'string') return null;
  if (deltaLink !== undefined && typeof deltaLink !== 'string') return null;
  let next: URL | null = null;
  try {
    next = nextLink === undefined ? null : new URL(nextLink, url);
  } catch {
    return null;
  }
  return { items: value as Record<string, unknown>[], next, deltaLink: deltaLink ?? null };
}
