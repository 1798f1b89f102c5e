import type { EntraResourceType } from './entra-resource-catalog.js';

/**
 * What Graph never returns for a backed-up type, for the snapshot manifest (issue 30, "Not
 * captured"): users' passwords (`passwordProfile.password` is write-only, "user resource type")
 * and their registered MFA methods, which a backup does not read
 * (`/users/{id}/authentication/methods`, and their secrets are never readable anyway).
 */
export const ENTRA_NOT_CAPTURED: Readonly<Partial<Record<EntraResourceType, readonly string[]>>> = {
  user: ['passwordProfile.password', '/v1.0/users/{id}/authentication/methods'],
};

/**
 * Graph members that change without the configuration changing, left out of content hashes
 * (not of records): `modifiedDateTime` / `lastModifiedDateTime` are set by Graph on every write,
 * the directory sync timestamps by Entra Connect's runs.
 */
export const ENTRA_VOLATILE_FIELDS: readonly string[] = Object.freeze([
  'modifiedDateTime',
  'lastModifiedDateTime',
  'onPremisesLastSyncDateTime',
  'onPremisesLastPasswordSyncDateTime',
]);
