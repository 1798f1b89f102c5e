import type { Json } from '@libs/simulators/okta/store/entry.js';
import { OktaError } from './okta-error.js';
import type { RequestContext } from '@libs/simulators/kit/http/router.js';

/**
 * The request body as a JSON object. Throws 400 E0000003 "The request body was not
 * well-formed." (Okta's reader exception) for anything else, an empty body included.
 */
export function jsonBody(context: RequestContext): Json {
  let value: unknown;
  try {
    value = JSON.parse(context.bodyText);
  } catch {
    value = undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new OktaError(400, 'E0000003', 'The request body was not well-formed.');
  return value as Json;
}

/** A boolean query flag (`?activate=false`); `fallback` when absent. */
export function queryFlag(url: URL, name: string, fallback: boolean): boolean {
  const value = url.searchParams.get(name);
  return value === null ? fallback : value.toLowerCase() !== 'false';
}
