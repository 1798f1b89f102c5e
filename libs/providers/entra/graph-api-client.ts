import type { TokenSource } from '@libs/providers/kit/client-credentials.js';
import type { HttpTransport, TransportResponse } from '@libs/providers/kit/http-transport.js';
import { setTimeout as delay } from 'node:timers/promises';
import { followPages, type ODataPage, readODataPage } from '@libs/providers/kit/pagers.js';
import { nextLinkOf } from './entra-list-page.js';
import type { GraphObject } from './graph-object.js';
import { backoffMs } from '@libs/providers/kit/rate-limit-governor.js';
import { parseRetryAfter } from '@libs/providers/kit/retry-after.js';
import { ProviderAuthError, ProviderError, ProviderRequestError } from '@libs/providers/provider-errors.js';
import {
  isReferenceError,
  READ_BACK_PAUSE_CAP_MS,
  type ReplicationWait,
  replicationPauseMs,
  WRITE_RETRY_PAUSE_CAP_MS,
} from './graph-replication.js';

export type { GraphObject } from './graph-object.js';

/** Requests in one JSON batch (Graph "JSON batching": "limited to 20 individual requests"). */
const MAX_BATCH = 20;
const BATCH_TEMPLATE = '/v1.0/$batch';
/** Rounds of a batch's throttled requests before giving up, the first included. */
const MAX_BATCH_ATTEMPTS = 5;
/** First backoff step of a batch's refused requests, ms; doubles each round (kit backoffMs). */
const BATCH_RETRY_BASE_MS = 500;

/** The largest `$top` Graph's directory lists accept (Graph "Paging"; `user-list`, `group-list`: 1 to 999). */
const MAX_TOP = 999;

/** A write of Graph v1.0 (restore): method, path template (stats key), parameters, JSON body. */
export interface GraphWrite {
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** e.g. `/v1.0/groups/{id}/members/$ref` */
  template: string;
  params?: Record<string, string>;
  body?: unknown;
  /** statuses that count as done (404 on a DELETE of what is gone already) */
  okOn?: readonly number[];
  /**
   * Answers 404 are sent again a few times, a second apart: Graph replicates a new object to its
   * other replicas with a delay ("Create user": "the object might not be available immediately"),
   * so a write naming an object created a moment ago may not find it yet.
   */
  retryNotFound?: boolean;
  signal?: AbortSignal;
}

/** Attempts of a write Graph answers 404 with `retryNotFound`, and the pause between them, ms. */
const NOT_FOUND_ATTEMPTS = 4;
const NOT_FOUND_PAUSE_MS = 1000;

/** A read of Graph v1.0: the path template (stats key), its parameters and `$select`. */
export interface GraphRead {
  /** e.g. `/v1.0/groups/{id}/members`; also the stats and rate-limit key */
  template: string;
  params?: Record<string, string>;
  select?: readonly string[];
  /** other query options (`$filter`), sent as given */
  query?: Readonly<Record<string, string | number>>;
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
    /** Graph's origin, `https://graph.microsoft.com` (the `@odata.id` of a `$ref` write names it) */
    readonly graphOrigin: string,
  ) {}

  /** Set on a view of waitingForReplication. */
  private replication?: ReplicationWait;

  /**
   * This client, whose writes that name an object created lately (`wait.namesFresh`) and that
   * Graph refuses as not there yet (isReferenceError) are sent again after capped exponential
   * pauses, for up to `wait.maxWaitMs` (graph-replication.ts).
   */
  waitingForReplication(wait: ReplicationWait): GraphApiClient {
    const view = Object.create(this) as GraphApiClient;
    view.replication = wait;
    return view;
  }

  /**
   * Reads an object just created until Graph finds it (a 404 is read again after the same pauses
   * as a write, for up to `wait.maxWaitMs`): once it is found, the replica this client reaches
   * has it ("Create user": the object might not be available immediately).
   * @returns whether it was found
   * @throws as `pages`
   */
  async readBack(read: GraphRead, wait: ReplicationWait): Promise<boolean> {
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      if (await this.objectIfFound(read)) return true;
      const pause = replicationPauseMs(wait, attempt, waited, READ_BACK_PAUSE_CAP_MS);
      if (pause === 0) return false;
      await delay(pause, undefined, { signal: read.signal });
      waited += pause;
      wait.waited(pause);
    }
  }

  /**
   * Each page of a collection as it arrives.
   * @throws ProviderAuthError on 401 with a fresh token or 403 (a permission not granted);
   *   ProviderRequestError for another answer than 200, or a body that is not an OData page
   */
  async *pages(read: GraphRead): AsyncGenerator<GraphObject[]> {
    const first = this.url(read);
    if (read.paged) first.searchParams.set('$top', String(MAX_TOP));
    for await (const page of this.odataPages(first, read)) yield page.items;
  }

  /**
   * Each page of a collection as its body arrived, unparsed (for a worker thread to parse and
   * encode: entra-list-page.ts), the next page read from the body's `@odata.nextLink` alone.
   * @throws as `pages`, except for a body that is no OData page (the worker's parse says so)
   */
  async *pageBodies(read: GraphRead): AsyncGenerator<Uint8Array<ArrayBuffer>> {
    const first = this.url(read);
    if (read.paged) first.searchParams.set('$top', String(MAX_TOP));
    yield* followPages({
      first,
      fetch: (url) => this.get(url, read),
      read: (response, url) => {
        const next = nextLinkOf(response.bytes, read.template);
        return { page: response.bytes, next: next === undefined ? null : new URL(next, url) };
      },
      failure: (response) => this.failure(response.status, response.body, read.template),
      signal: read.signal,
    });
  }

  /**
   * Each page of a delta round from `link` (a `@odata.deltaLink`, or a first delta URL), followed
   * as an opaque URL until the page with the round's `@odata.deltaLink` ("delta query overview").
   * @throws as `pages`; ProviderError `cursor_expired` when Graph no longer has the sync state:
   *   410 Gone ("Synchronization reset") or `syncStateNotFound` (a link older than seven days)
   */
  deltaPages(link: URL, read: GraphRead): AsyncGenerator<ODataPage> {
    return this.odataPages(link, read);
  }

  private odataPages(first: URL, read: GraphRead): AsyncGenerator<ODataPage> {
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
        return { page, next: page.next };
      },
      failure: (response) => this.failure(response.status, response.body, read.template),
      signal: read.signal,
    });
  }

  /**
   * One object (a singleton such as `/v1.0/policies/authorizationPolicy`), its `@odata.context`
   * annotation left out (it describes the answer, not the object).
   * @throws as `pages`
   */
  async object(read: GraphRead): Promise<GraphObject> {
    const object = await this.objectIfFound(read);
    if (!object) throw new ProviderRequestError(`Graph answered GET ${read.template} with HTTP 404`, 404);
    return object;
  }

  /**
   * One object by its path, or null when Graph answers 404 (deleted since it was named).
   * @throws as `pages`
   */
  async objectIfFound(read: GraphRead): Promise<GraphObject | null> {
    const response = await this.get(this.url(read), read);
    if (response.status === 404) return null;
    if (response.status !== 200) throw this.failure(response.status, response.body, read.template);
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
    for (const [name, value] of Object.entries(read.query ?? {})) url.searchParams.set(name, String(value));
    return url;
  }

  /**
   * Objects by path, in the order of `reads`, null for each Graph answers 404 (deleted since it was
   * named): sent 20 at a time as one JSON batch (`POST /v1.0/$batch`; Graph "JSON batching": at
   * most 20 requests), which saves requests, not resource units (each request of a batch is
   * metered on its own). Requests Graph throttled or failed inside a batch (429, 5xx) are sent
   * again after their `Retry-After` (fractional seconds), and no sooner than an exponential
   * backoff.
   * @throws ProviderAuthError for a 401/403 inside or outside; ProviderRequestError for another
   *   answer, or when retries are spent
   */
  async objectsIfFound(
    reads: readonly GraphRead[],
    signal?: AbortSignal,
  ): Promise<Array<GraphObject | null>> {
    const results: Array<GraphObject | null> = reads.map(() => null);
    let pending = reads.map((_, index) => index);
    for (let attempt = 1; pending.length > 0; attempt++) {
      const again: number[] = [];
      let waitMs = 0;
      for (let start = 0; start < pending.length; start += MAX_BATCH) {
        const chunk = pending.slice(start, start + MAX_BATCH);
        const requests = chunk.map((index) => {
          const url = this.url(reads[index]);
          return {
            id: String(index),
            method: 'GET',
            url: `${url.pathname.replace(/^\/v1\.0/, '')}${url.search}`,
            headers: { 'x-ms-throttle-priority': 'low' },
          };
        });
        const response = await this.send(new URL(BATCH_TEMPLATE, this.graphOrigin), {
          template: BATCH_TEMPLATE,
          signal,
          method: 'POST',
          body: JSON.stringify({ requests }),
          // Each request of a batch is metered on its own, at least 1 resource unit.
          units: requests.length,
        });
        if (response.status !== 200) throw this.failure(response.status, response.body, BATCH_TEMPLATE);
        for (const inner of batchResponses(response.body)) {
          const index = Number(inner.id);
          const { template } = reads[index];
          if (inner.status === 200) results[index] = withoutContext(inner.body as GraphObject);
          else if (inner.status === 404) results[index] = null;
          else if (inner.status === 429 || inner.status >= 500) {
            if (attempt >= MAX_BATCH_ATTEMPTS)
              throw new ProviderRequestError(
                `Graph kept answering GET ${template} with HTTP ${inner.status}`,
                inner.status,
              );
            again.push(index);
            const lower = Object.fromEntries(
              Object.entries(inner.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
            );
            const at = parseRetryAfter(lower, Date.now());
            // Never sooner than a backoff: the requests of a batch, and the batches in flight,
            // were refused together, and "immediate retries accrue against your usage limits"
            // (Graph "Throttling"), so a Retry-After of a few ms for each would refuse them again.
            const backoff = backoffMs(attempt, BATCH_RETRY_BASE_MS, 30_000, Math.random());
            waitMs = Math.max(waitMs, backoff, at === null ? 0 : at - Date.now());
          } else throw this.failure(inner.status, JSON.stringify(inner.body ?? null), template);
        }
      }
      pending = again;
      if (pending.length > 0) await delay(Math.max(0, waitMs), undefined, { signal });
    }
    return results;
  }

  /**
   * One write. POST is sent once by the transport (a creation is not idempotent); PATCH, PUT and
   * DELETE are retried by it like reads. Through a view of waitingForReplication, a write Graph
   * refuses as naming an object not replicated yet is sent again (any method: it changed nothing).
   * @returns the answer's object (its `@odata.context` left out), or null for an empty answer
   *   (204 No Content)
   * @throws ProviderAuthError on 401 with a fresh token or 403; ProviderRequestError for another
   *   answer than 2xx or `okOn`
   */
  async write(write: GraphWrite): Promise<GraphObject | null> {
    const url = this.url({ template: write.template, params: write.params });
    const replication =
      this.replication?.namesFresh(JSON.stringify([write.params, write.body])) === true
        ? this.replication
        : undefined;
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      write.signal?.throwIfAborted();
      const response = await this.send(url, {
        template: write.template,
        signal: write.signal,
        method: write.method,
        body: write.body === undefined ? undefined : JSON.stringify(write.body),
      });
      const ok = (response.status >= 200 && response.status < 300) || write.okOn?.includes(response.status);
      if (ok) {
        const body = response.body.trim() === '' ? null : parseJson(response.body);
        // Writes the same restore makes next (a creation's own follow-up PATCH) may name it.
        if (write.method === 'POST' && response.status === 201) this.replication?.created(createdIds(body));
        return body !== null && typeof body === 'object' ? withoutContext(body as GraphObject) : null;
      }
      // A refused write changed nothing: sending it again (a POST too) cannot make it twice.
      const pause =
        replication && isReferenceError(response.status, response.body)
          ? replicationPauseMs(replication, attempt, waited, WRITE_RETRY_PAUSE_CAP_MS)
          : 0;
      if (pause > 0) {
        await delay(pause, undefined, { signal: write.signal });
        waited += pause;
        replication!.waited(pause);
        continue;
      }
      if (response.status === 404 && write.retryNotFound && attempt < NOT_FOUND_ATTEMPTS) {
        await delay(NOT_FOUND_PAUSE_MS, undefined, { signal: write.signal });
        continue;
      }
      throw this.failure(response.status, response.body, write.template, write.method);
    }
  }

  private async get(url: URL, read: GraphRead): Promise<TransportResponse> {
    return this.send(url, { template: read.template, signal: read.signal, method: 'GET' });
  }

  private async send(
    url: URL,
    request: {
      template: string;
      signal?: AbortSignal;
      method: GraphWrite['method'] | 'GET';
      body?: string;
      units?: number;
    },
  ): Promise<TransportResponse> {
    const send = async (token: string): Promise<TransportResponse> =>
      this.transport.send({
        method: request.method,
        url,
        template: request.template,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          'x-ms-throttle-priority': 'low',
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: request.body,
        units: request.units,
        // A batch of reads is as safe to send again as a read; a creation is not.
        idempotent: request.method !== 'POST' || request.template === BATCH_TEMPLATE,
        signal: request.signal,
      });

    const token = await this.tokens.accessToken(request.signal);
    const response = await send(token);
    if (response.status !== 401) return response;
    this.tokens.invalidate(token);
    return send(await this.tokens.accessToken(request.signal));
  }

  private failure(status: number, body: string, template: string, method = 'GET'): Error {
    const { error } = (parseJson(body) ?? {}) as { error?: { code?: unknown; message?: unknown } };
    const said =
      typeof error?.code === 'string' ? `${error.code}: ${String(error.message ?? '')}` : `HTTP ${status}`;
    if (status === 410 || error?.code === 'syncStateNotFound')
      return new ProviderError(
        `Graph no longer has the sync state of a delta link of ${template} (${said}); a full backup starts over`,
        'cursor_expired',
      );
    if (status === 401 || status === 403)
      return new ProviderAuthError(
        `Graph refused ${method} ${template} (${said}); grant the application permission docs/resource-types.md lists for it`,
      );
    return new ProviderRequestError(
      `Graph answered ${method} ${template} with HTTP ${status} (${said})`,
      status,
    );
  }
}

/** One answer inside a batch's `responses`. */
interface BatchResponse {
  id: string;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** The `responses` of a batch answer. @throws ProviderRequestError for another body */
function batchResponses(body: string): BatchResponse[] {
  const { responses } = (parseJson(body) ?? {}) as { responses?: unknown };
  if (!Array.isArray(responses) || !responses.every((r) => typeof (r as BatchResponse)?.status === 'number'))
    throw new ProviderRequestError(`Graph answered ${BATCH_TEMPLATE} with a body that is not a batch`, 200);
  return responses as BatchResponse[];
}

/** The ids a creation's answer gives the new object: its `id`, and an application's `appId`. */
function createdIds(body: unknown): string[] {
  const { id, appId } = (body ?? {}) as { id?: unknown; appId?: unknown };
  return [id, appId].filter((value): value is string => typeof value === 'string');
}

/** An object without its `@odata.context` annotation (it describes the answer, not the object). */
function withoutContext(object: GraphObject): GraphObject {
  const { '@odata.context': _context, ...rest } = object;
  return rest;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
