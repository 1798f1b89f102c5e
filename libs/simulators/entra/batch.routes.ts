import type { IncomingHttpHeaders } from 'node:http';

import { json } from '@libs/simulators/kit/http/reply.js';
import type { Route } from '@libs/simulators/kit/http/router.js';

import { badRequest } from './graph-error.js';
import type { GraphContext } from './graph-route.js';
import type { Reply } from '@libs/simulators/kit/http/reply.js';

/** What routes a request and answers it: the HTTP handler's and `$batch`'s (simulator.ts). */
export type Answer = (request: {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  bodyText: string;
}) => Promise<Reply>;

/** The batch endpoint's template: its requests are counted and throttled each on its own. */
export const BATCH_TEMPLATE = '/v1.0/$batch';
/** "JSON batch requests are currently limited to 20 individual requests" (Graph "JSON batching"). */
export const MAX_BATCH_REQUESTS = 20;

/** One request of a batch body. */
interface BatchRequest {
  id: string;
  method: string;
  /** relative to the version, `/users/{id}?$select=id` */
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * `POST /v1.0/$batch` (Microsoft Graph "Combine multiple HTTP requests using JSON batching"):
 * `{ requests: [{ id, method, url, headers?, body? }] }`, at most 20, each answered as if sent on
 * its own with the batch's `Authorization` (its permissions checked, counted and throttled
 * individually: a throttled one is a 429 with its `Retry-After` inside a 200), in
 * `{ responses: [{ id, status, headers, body }] }`. The batch itself needs a valid token.
 * @throws GraphError 400 for a body that is not a batch or holds more than 20 requests
 */
export function batchRoute(graph: GraphContext, answer: Answer): Route {
  return {
    method: 'POST',
    template: BATCH_TEMPLATE,
    access: { kind: 'public' },
    async handle({ headers, bodyText }) {
      graph.apps.verify(headers.authorization);
      const requests = batchRequests(bodyText);
      const responses = await Promise.all(
        requests.map(async (request) => {
          const innerHeaders: IncomingHttpHeaders = {
            ...Object.fromEntries(
              Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
            ),
            authorization: headers.authorization,
          };
          const reply = await answer({
            method: request.method.toUpperCase(),
            url: new URL(`/v1.0${request.url.startsWith('/') ? '' : '/'}${request.url}`, graph.baseUrl),
            headers: innerHeaders,
            bodyText: request.body === undefined ? '' : JSON.stringify(request.body),
          });
          const text = reply.body === undefined ? undefined : reply.body.toString();
          return {
            id: request.id,
            status: reply.status,
            headers: {
              ...(text === undefined ? {} : { 'Content-Type': 'application/json' }),
              ...reply.headers,
            },
            ...(text === undefined ? {} : { body: JSON.parse(text) as unknown }),
          };
        }),
      );
      return json(200, { responses });
    },
  };
}

/** @throws GraphError 400 for a body that is not a batch of 1 to 20 requests with unique ids */
function batchRequests(bodyText: string): BatchRequest[] {
  let body: { requests?: unknown };
  try {
    body = JSON.parse(bodyText) as { requests?: unknown };
  } catch {
    throw badRequest('Unable to read JSON request payload.');
  }
  const requests = body?.requests;
  if (!Array.isArray(requests) || requests.length === 0)
    throw badRequest('Invalid batch payload format: requests must be a non-empty array.');
  if (requests.length > MAX_BATCH_REQUESTS)
    throw badRequest(`The number of batch requests exceeds the limit of ${MAX_BATCH_REQUESTS}.`);
  const ids = new Set<string>();
  for (const request of requests as Partial<BatchRequest>[]) {
    if (
      typeof request?.id !== 'string' ||
      typeof request.method !== 'string' ||
      typeof request.url !== 'string'
    )
      throw badRequest('Invalid batch payload format: each request needs an id, a method and a url.');
    if (ids.has(request.id)) throw badRequest(`Batch request id '${request.id}' is used more than once.`);
    ids.add(request.id);
  }
  return requests as BatchRequest[];
}
