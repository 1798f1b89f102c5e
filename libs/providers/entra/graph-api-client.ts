import type { TokenSource } from '@libs/providers/kit/client-credentials.js';
import type { HttpTransport, TransportResponse } from '@libs/providers/kit/http-transport.js';
import { followPages, readODataPage } from '@libs/providers/kit/pagers.js';
import { ProviderAuthError, ProviderRequestError } from '@libs/providers/provider-errors.js';

/** One Graph JSON object, as returned. */
export type GraphObject = Record<string, unknown>;

/** The largest `$top` Graph's directory lists accept (Graph "Paging"; `user-list`, `group-list`: 1 to 999). */
const MAX_TOP = 999;

/** A read of Graph v1.0: the path template (stats key), its parameters and `$select`. */
export interface GraphRead {
  /** e.g. `/v1.0/groups/{id}/members`; also the stats and rate-limit key */
  template: string;
  params?: Record<string, string>;
  select?: readonly string[];
  /** other query options (`$filter`), sent as given */
  query?: Readonly<Record<string, string>>;
  /** send `$top=999` (collections that accept it; conditional access lists do too) */
  paged?: boolean;
  signal?: AbortSignal;
}

/**
 * Authenticated reads of Microsoft Graph: a bearer token from the client credentials source,
 * one new token after a 401, `x-ms-throttle-priority: low` on every request so the tenant's own
 * tools go first when Graph has to throttle (Graph "Throttling limits": requests of low priority
 * are throttled first), and OData paging through `@odata.nextLink` followed as an opaque URL
 * (Graph "Paging"), each next URL passing the transport's SSRF guard.
 */
export class GraphApiClient {
  constructor(
    private readonly transport: HttpTransport,
    private readonly tokens: TokenSource,
    private readonly graphOrigin: string,
  ) {}

  /**
   * Each page of a collection as it arrives.
   * @throws ProviderAuthError on 401 with a fresh token or 403 (a permission not granted);
   *   ProviderRequestError for another answer than 200, or a body that is not an OData page
   */
  pages(read: GraphRead): AsyncGenerator<GraphObject[]> {
    const first = this.url(read);
    if (read.paged) first.searchParams.set('$top', String(MAX_TOP));
    return followPages({
      first,
      fetch: (url) => this.get(url, read),
      read: (response, url) => {
        const page = readODataPage(parseJson(response.body), url);
        if (!page)
          throw new ProviderRequestError(
            `Graph answered ${read.template} with a body that is not an OData collection`,
            response.status,
          );
        return { page: page.items, next: page.next };
      },
      failure: (response) => this.failure(response, read.template),
      signal: read.signal,
    });
  }

  /**
   * One object (a singleton such as `/v1.0/policies/authorizationPolicy`), its `@odata.context`
   * annotation left out (it describes the answer, not the object).
   * @throws as `pages`
   */
  async object(read: GraphRead): Promise<GraphObject> {
    const response = await this.get(this.url(read), read);
    if (response.status !== 200) throw this.failure(response, read.template);
    const body = parseJson(response.body);
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw new ProviderRequestError(
        `Graph answered ${read.template} with a body that is not an object`,
        response.status,
      );
    const { '@odata.context': _context, ...object } = body as GraphObject;
    return object;
  }

  private url(read: GraphRead): URL {
    const path = read.template.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(read.params?.[name] ?? ''),
    );
    const url = new URL(path, this.graphOrigin);
    if (read.select) url.searchParams.set('$select', read.select.join(','));
    for (const [name, value] of Object.entries(read.query ?? {})) url.searchParams.set(name, value);
    return url;
  }

  private async get(url: URL, read: GraphRead): Promise<TransportResponse> {
    const send = async (token: string): Promise<TransportResponse> =>
      this.transport.send({
        method: 'GET',
        url,
        template: read.template,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          'x-ms-throttle-priority': 'low',
        },
        idempotent: true,
        signal: read.signal,
      });
    const token = await this.tokens.accessToken(read.signal);
    const response = await send(token);
    if (response.status !== 401) return response;
    this.tokens.invalidate(token);
    return send(await this.tokens.accessToken(read.signal));
  }

  private failure(response: TransportResponse, template: string): Error {
    const { error } = (parseJson(response.body) ?? {}) as { error?: { code?: unknown; message?: unknown } };
    const said =
      typeof error?.code === 'string'
        ? `${error.code}: ${String(error.message ?? '')}`
        : `HTTP ${response.status}`;
    if (response.status === 401 || response.status === 403)
      return new ProviderAuthError(
        `Graph refused GET ${template} (${said}); grant the application permission docs/resource-types.md lists for it`,
      );
    return new ProviderRequestError(
      `Graph answered GET ${template} with HTTP ${response.status} (${said})`,
      response.status,
    );
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
