import { canonicalJson } from '@libs/snapshot/content-hash.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';

/** A name compared the way Okta checks its uniqueness (case-insensitive), or null when absent. */
export function caseless(value: unknown): string | null {
  return typeof value === 'string' ? value.toLowerCase() : null;
}

/** `data[key]` as an object (empty when absent), to read nested Okta JSON. */
export function objectAt(data: OktaObject, key: string): OktaObject {
  return (data[key] ?? {}) as OktaObject;
}

/**
 * `wanted`'s members that `have` lacks or holds differently, and, when `removable`, null for the
 * members of `have` that `wanted` lacks: the body of Okta's partial updates, where "you must set
 * properties explicitly to null to remove them" (updateUserProfile, updateProfileMapping).
 */
export function changesFrom(have: OktaObject, wanted: OktaObject, removable: boolean): OktaObject {
  const changes: OktaObject = {};
  for (const [name, value] of Object.entries(wanted))
    if (have[name] === undefined || canonicalJson(have[name]) !== canonicalJson(value)) changes[name] = value;
  if (removable) for (const name of Object.keys(have)) if (wanted[name] === undefined) changes[name] = null;
  return changes;
}
