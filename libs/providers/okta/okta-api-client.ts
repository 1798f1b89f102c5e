import { ProviderAuthError, ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { TokenSource } from '@libs/providers/kit/client-credentials.js';
import { followPages, linkHeaderNext } from '@libs/providers/kit/pagers.js';
import { isFeatureNotEnabled } from './okta-feature.js';
import type {
  HttpTransport,
  TransportRequest,
  TransportResponse,
} from '@libs/providers/kit/http-transport.js';

/** One Okta JSON object, as returned. */
export type OktaObject = Record<string, unknown>;

/** A list request: an endpoint template, its path parameters and query. */
export interface ListRequest {
  /** e.g. `/api/v1/groups/{groupId}/users`; also the stats and rate-limit key. */
  template: string;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  /**
   * Statuses that mean "nothing to list here" when they answer the first page, e.g. 400 for a
   * policy type the org has not enabled, 404 for a parent deleted since it was listed.
   */
  emptyOn?: readonly number[];
  /**
   * The list is wrapped in an object under this key, e.g. `roles` for `{ "roles": [...],
   * "_links": { "next": { "href": ... } } }` (the IAM APIs), and pages through `_links.next`.
   */
  itemsKey?: string;
  signal?: AbortSignal;
}

/** A write request: method, endpoint template (also the stats and rate-limit key), path parameters, JSON body. */
export interface WriteRequest {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  template: string;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Statuses besides 2xx that mean the write has nothing to do (404 deleting what is gone). */
  okOn?: readonly number[];
  /**
   * Whether the write may be sent again after a 5xx or a dropped connection: by default every
   * method but POST. A POST that creates nothing (an invocation that only reads) says true.
   */
  idempotent?: boolean;
  signal?: AbortSignal;
}

/**
 * Authenticated calls of the Okta Management API: bearer token from the client-credentials
 * source, one token refresh on 401, writes for restores, and cursor pagination through `Link: rel="next"` (Okta API
 * "Pagination"), each next URL passing the transport's SSRF guard.
 */
export class OktaApiClient {
  constructor(
    private readonly transport: HttpTransport,
    private readonly tokens: TokenSource,
    private readonly orgOrigin: string,
  ) {}

  /**
   * Yields each page of a list as it arrives (an array of objects), so a caller never holds
   * more than one page.
   *
   * @throws ProviderAuthError when Okta refuses a fresh token (401 twice);
   *   ProviderRequestError for any other non-2xx answer (with Okta's errorCode and errorSummary),
   *   or a body that is not a JSON array of objects.
   */
  async *pages(list: ListRequest): AsyncGenerator<OktaObject[]> {
    const { itemsKey, template } = list;
    yield* this.list(list, ({ body }) =>
      itemsKey === undefined ? { page: parseArray(body, template) } : parseWrapped(body, itemsKey, template),
    );
  }

  /**
   * Yields the body of each page of a list paged through `Link` headers, as received (UTF-8),
   * for a caller that parses it elsewhere (a worker thread, okta-page-worker.ts); see
   * `parseArray`.
   * @throws as `pages` does, but not for a body that is not a JSON array
   */
  async *pageBodies(list: Omit<ListRequest, 'itemsKey'>): AsyncGenerator<Uint8Array<ArrayBuffer>> {
    yield* this.list(list, ({ bytes }) => ({ page: bytes }));
  }

  /**
   * Pages of `list`, each read from its body by `read`, which may name the next page (the
   * IAM APIs' `_links.next`); otherwise the `Link: rel="next"` header does (Okta API "Pagination").
   */
  private list<T>(
    list: Omit<ListRequest, 'itemsKey'>,
    read: (response: TransportResponse) => { page: T; next?: string },
  ): AsyncGenerator<T> {
    return followPages({
      first: this.firstUrl(list),
      fetch: (url) => this.get(url, list.template, list.signal),
      read: (response, url) => {
        const { page, next } = read(response);
        return { page, next: next === undefined ? linkHeaderNext(response, url) : new URL(next, url) };
      },
      failure: (response) => failure(response, `GET ${list.template}`),
      emptyOn: list.emptyOn,
      // An org without the feature holds none of its objects.
      emptyWhen: isFeatureNotEnabled,
      signal: list.signal,
    });
  }

  /**
   * One object (`GET /api/v1/meta/schemas/group/default`...), or null when the answer is one
   * of `emptyOn` (404 for a page that was never customized) or says the org lacks the feature.
   *
   * @throws as `pages` does, and ProviderRequestError when the body is not a JSON object.
   */
  async object(request: Omit<ListRequest, 'itemsKey'>): Promise<OktaObject | null> {
    request.signal?.throwIfAborted();
    const response = await this.get(this.firstUrl(request), request.template, request.signal);
    if (request.emptyOn?.includes(response.status) || isFeatureNotEnabled(response)) return null;
    if (response.status !== 200) throw failure(response, `GET ${request.template}`);
    const body = parseJson(response.body);
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw new ProviderRequestError(
        `Okta answered GET ${request.template} with something other than a JSON object`,
        200,
      );
    return body as OktaObject;
  }

  /**
   * Whether the org has the feature `template`'s list belongs to: false when Okta answers the
   * list's first page with E0000015 (okta-feature.ts), true when it answers it with 200.
   * @throws ProviderAuthError when Okta refuses a fresh token; ProviderRequestError for any other answer
   */
  async hasFeature(template: string, signal?: AbortSignal): Promise<boolean> {
    signal?.throwIfAborted();
    const response = await this.get(this.firstUrl({ template }), template, signal);
    if (isFeatureNotEnabled(response)) return false;
    if (response.status !== 200) throw failure(response, `GET ${template}`);
    return true;
  }

  /**
   * One write (create, replace, delete, lifecycle operation). Creations (POST) are not sent
   * again after a 5xx or a dropped connection, since the first may have been carried out; the
   * restore that calls this matches by natural key when it runs again. `idempotent` overrides
   * that for a POST that changes nothing.
   * @returns the answer's JSON (null for an empty body, as 204s have)
   * @throws ProviderAuthError when Okta refuses a fresh token; ProviderRequestError for any
   *   status outside 2xx (with Okta's errorCode and errorSummary), unless listed in `okOn`
   */
  async write(request: WriteRequest): Promise<unknown> {
    request.signal?.throwIfAborted();
    const response = await this.exchange(
      request.method,
      this.firstUrl(request),
      request.template,
      request.body === undefined ? undefined : JSON.stringify(request.body),
      request.idempotent ?? request.method !== 'POST',
      request.signal,
    );
    const ok = (response.status >= 200 && response.status < 300) || request.okOn?.includes(response.status);
    if (!ok) throw failure(response, `${request.method} ${request.template}`);
    return response.body.trim() === '' ? null : parseJson(response.body);
  }

  private firstUrl(list: Omit<ListRequest, 'itemsKey'>): URL {
    const path = list.template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = list.params?.[name];
      if (value === undefined) throw new Error(`No value for {${name}} in ${list.template}`);
      return encodeURIComponent(value);
    });
    const url = new URL(path, this.orgOrigin);
    for (const [name, value] of Object.entries(list.query ?? {})) url.searchParams.set(name, String(value));
    return url;
  }

  private get(url: URL, template: string, signal?: AbortSignal): Promise<TransportResponse> {
    return this.exchange('GET', url, template, undefined, true, signal);
  }

  private async exchange(
    method: TransportRequest['method'],
    url: URL,
    template: string,
    body: string | undefined,
    idempotent: boolean,
    signal?: AbortSignal,
  ): Promise<TransportResponse> {
    for (let refreshed = false; ; refreshed = true) {
      const token = await this.tokens.accessToken(signal);
      const headers: Record<string, string> = {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await this.transport.send({
        method,
        url,
        template,
        headers,
        body,
        idempotent,
        signal,
      });
      if (response.status !== 401 || isFeatureNotEnabled(response)) return response;
      // Expired or revoked before its time: one fresh token, then give up.
      this.tokens.invalidate(token);
      if (refreshed) throw new ProviderAuthError(`Okta refused a fresh access token: ${describe(response)}`);
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObjectArray(value: unknown): value is OktaObject[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null);
}

/**
 * A list page's body (`GET template`) as its objects.
 * @throws ProviderRequestError when it is not a JSON array of objects
 */
export function parseArray(text: string, template: string): OktaObject[] {
  const body = parseJson(text);
  if (!isObjectArray(body)) {
    throw new ProviderRequestError(
      `Okta answered GET ${template} with something other than a JSON array`,
      200,
    );
  }
  return body;
}

/** `{ [key]: [...], _links: { next: { href } } }`; a missing key is an empty page. */
function parseWrapped(text: string, key: string, template: string): { page: OktaObject[]; next?: string } {
  const body = parseJson(text) as Record<string, unknown> | undefined;
  const items = body?.[key] ?? [];
  if (body === null || typeof body !== 'object' || !isObjectArray(items)) {
    throw new ProviderRequestError(
      `Okta answered GET ${template} with something other than an object holding a "${key}" array`,
      200,
    );
  }
  const next = (body._links as { next?: { href?: unknown } } | undefined)?.next?.href;
  return { page: items, next: typeof next === 'string' ? next : undefined };
}

function failure(response: TransportResponse, what: string): ProviderRequestError {
  return new ProviderRequestError(`Okta answered ${what} with ${describe(response)}`, response.status);
}

/** `HTTP 403 E0000006: You do not have permission...` from Okta's error body (OpenAPI `Error`). */
function describe(response: TransportResponse): string {
  let summary = '';
  try {
    const { errorCode, errorSummary } = JSON.parse(response.body) as Record<string, unknown>;
    summary = [errorCode, errorSummary].filter((part) => typeof part === 'string').join(': ');
  } catch {
    // Not Okta's JSON error (a proxy's page, say): the status says enough.
  }
  // RFC 6750 §3.1: a 403 `insufficient_scope` challenge names the scope the token lacks.
  const challenge = response.headers['www-authenticate'];
  const scope = /error="insufficient_scope"/.test(String(challenge))
    ? /scope="([^"]*)"/.exec(String(challenge))
    : null;
  const hint = scope ? ` (the token lacks scope ${scope[1]}; grant it to the API service integration)` : '';
  return `HTTP ${response.status}${summary ? ` ${summary.slice(0, 300)}` : ''}${hint}`;
}
