import type { EntraResourceType } from './entra-resource-catalog.js';

/**
 * A credential's values Graph never reads back: a client secret's `secretText` is answered once,
 * by `addPassword`, and is null on every read ("passwordCredential resource type"); a
 * certificate's `key` is null in lists ("keyCredential resource type": returned only with
 * `$select` on one object) and its private key never reaches Entra at all.
 */
const CREDENTIAL_VALUES = [
  'passwordCredentials[].secretText',
  'keyCredentials[].key',
  'private keys (Entra holds only certificates)',
];

/**
 * What Graph never returns for a backed-up type, for the snapshot manifest (docs/resource-types.md, "Not
 * captured"): users' passwords (`passwordProfile.password` is write-only, "user resource type")
 * and their registered MFA methods, which a backup does not read
 * (`/users/{id}/authentication/methods`, and their secrets are never readable anyway); the secret
 * values and private keys of applications' and service principals' credentials.
 */
export const ENTRA_NOT_CAPTURED: Readonly<Partial<Record<EntraResourceType, readonly string[]>>> = {
  user: ['passwordProfile.password', '/v1.0/users/{id}/authentication/methods'],
  application: CREDENTIAL_VALUES,
  service_principal: CREDENTIAL_VALUES,
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
