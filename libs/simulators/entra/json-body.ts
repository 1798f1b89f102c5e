import { GraphError } from './graph-error.js';

/**
 * A JSON object request body.
 * @throws GraphError 400 `BadRequest` for anything else ("Unable to read JSON request payload.")
 */
export function jsonObjectBody(bodyText: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new GraphError(400, 'BadRequest', 'Unable to read JSON request payload.');
  return body as Record<string, unknown>;
}
