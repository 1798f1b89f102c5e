import { validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';

/**
 * Requires a non-empty string at `path` (dotted) of a request body; otherwise Okta's
 * 400 E0000001 "Api validation failed: {field}" with "{field}: The field cannot be left blank".
 */
export function requireText(body: Json, path: string): string {
  let value: unknown = body;
  for (const key of path.split('.'))
    value = value !== null && typeof value === 'object' ? (value as Json)[key] : undefined;
  const field = path.split('.').pop() ?? path;
  if (typeof value !== 'string' || value.trim() === '')
    throw validationFailed(field, `${field}: The field cannot be left blank`);
  return value;
}

/**
 * Requires a member at `path` (dotted) of a request body, whatever its value: a member the
 * operation's request schema lists as `required` (management.yaml). Okta answers a body without
 * it 400 E0000001 "Api validation failed: {field}", as recorded for createRole's `permissions`.
 */
export function requireMember(body: Json, path: string): unknown {
  let value: unknown = body;
  for (const key of path.split('.'))
    value = value !== null && typeof value === 'object' ? (value as Json)[key] : undefined;
  const field = path.split('.').pop() ?? path;
  if (value === undefined || value === null)
    throw validationFailed(field, `${field}: The field cannot be left blank`);
  return value;
}
