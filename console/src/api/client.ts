import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema';
import { ApiError, parseRetryAfter, type ErrorBody } from './errors';

/** The API's named schemas (generated from /api/openapi.json). */
export type Schemas = components['schemas'];

let client: Client<paths> | null = null;
let baseUrl = '';
let onUnauthorized: () => void = () => {};

/** Points the client at the API (from /config.json); the session cookie goes with every request. */
export function configureApi(apiUrl: string, unauthorized: () => void): void {
  client = createClient<paths>({ baseUrl: apiUrl, credentials: 'include' });
  baseUrl = apiUrl;
  onUnauthorized = unauthorized;
}

/** The API's base URL, for links that leave the console for the API (sign-in through the identity provider). */
export function apiBaseUrl(): string {
  return baseUrl;
}

/** The typed API client; configureApi must have run. */
export function api(): Client<paths> {
  if (!client) throw new Error('configureApi has not run');
  return client;
}

/**
 * The data of an openapi-fetch result, or an ApiError for an error answer (a 401 also tells the
 * app the session is gone).
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  const body = (error && typeof error === 'object' ? error : { error: response.statusText }) as ErrorBody;
  if (response.status === 401) onUnauthorized();
  throw new ApiError(response.status, body, parseRetryAfter(response.headers.get('retry-after')));
}
