import type { RestoreWriteOptions } from '@libs/providers/provider-restore.js';
import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { TypeRestoreDefinition } from '@libs/providers/kit/type-restore-definition.js';
import type { OktaApiClient } from '@libs/providers/okta/okta-api-client.js';

export { type Created, idParts, omit, pick } from '@libs/providers/kit/type-restore-definition.js';

/** What a definition's writes are given. */
export interface WriteContext {
  api: OktaApiClient;
  options: RestoreWriteOptions;
  signal?: AbortSignal;
}

/**
 * How a restore writes one Okta type: the write-side twin of RESOURCE_DEFINITIONS
 * (okta-resource-catalog.ts), with endpoints from management.yaml and lifecycle rules from
 * Okta's docs and recorded traffic (kit type-restore-definition.ts has the members). The default
 * `writable` leaves out the fields Okta owns (`SERVER_OWNED`); `status` defaults to `data.status`;
 * `remove` deactivates first where Okta requires it.
 */
export type RestoreDefinition = TypeRestoreDefinition<WriteContext>;

/** Fields Okta sets itself on every object: never written, never compared. */
export const SERVER_OWNED: readonly string[] = [
  'id',
  'created',
  'createdBy',
  'lastUpdated',
  'lastUpdatedBy',
  'lastMembershipUpdated',
  'statusChanged',
  'activated',
  'lastLogin',
  'passwordChanged',
  'transitioningToStatus',
  '_links',
  '_embedded',
];

/**
 * The id Okta gave a created object (`id` of its answer).
 * @throws ProviderRequestError when the answer has none
 */
export function createdId(answer: unknown, what: string): string {
  const id = (answer as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || id === '')
    throw new ProviderRequestError(`Okta created ${what} without answering its id`, 200);
  return id;
}
