import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';

/**
 * `data` without the values at the dotted `paths` (`credentials.signing.kid`), copying only the
 * objects along each path; a path that is not there changes nothing. For fields Okta sets inside
 * objects a restore otherwise writes whole (an app's signing key id within its `credentials`).
 */
export function withoutPaths(data: OktaObject, paths: readonly string[]): OktaObject {
  let result = data;
  for (const path of paths) result = without(result, path.split('.'));
  return result;
}

function without(object: OktaObject, [head, ...rest]: string[]): OktaObject {
  if (!(head in object)) return object;
  const { [head]: value, ...kept } = object;
  if (rest.length === 0) return kept;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return object;
  return { ...kept, [head]: without(value as OktaObject, rest) };
}
