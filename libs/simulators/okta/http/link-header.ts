/**
 * Okta's `Link` headers for a page (developer.okta.com/docs/api/#link-header): one header per
 * relation, `<url>; rel="self"` and, when more results exist, `<url>; rel="next"`.
 *
 * As in recorded Okta responses, the self link repeats the request's recognized parameters in
 * a fixed order (`after`, `limit`, then the endpoint's own: `search`, `filter`, `q`, `type`...),
 * dropping unknown ones; the next link is `after=<cursor>&limit=<page size>` followed by the same
 * endpoint parameters. Spaces are encoded `+`, quotes `%22`, as Okta does.
 */
export function linkHeaders(
  baseUrl: string,
  pathname: string,
  query: URLSearchParams,
  endpointParams: readonly string[],
  page: { limit: number; nextCursor?: string },
): string[] {
  const own = endpointParams
    .filter((p) => query.has(p))
    .map((p) => [p, query.get(p) ?? ''] as [string, string]);
  const self = new URLSearchParams();
  for (const name of ['after', 'limit']) if (query.has(name)) self.append(name, query.get(name) ?? '');
  for (const [name, value] of own) self.append(name, value);
  const links = [`<${href(baseUrl, pathname, self)}>; rel="self"`];
  if (page.nextCursor !== undefined) {
    const next = new URLSearchParams([['after', page.nextCursor], ['limit', String(page.limit)], ...own]);
    links.push(`<${href(baseUrl, pathname, next)}>; rel="next"`);
  }
  return links;
}

function href(baseUrl: string, pathname: string, query: URLSearchParams): string {
  const text = query.toString();
  return `${baseUrl}${pathname}${text ? `?${text}` : ''}`;
}
