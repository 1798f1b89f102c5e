import type { TypeRestoreDefinition } from '@libs/providers/kit/type-restore-definition.js';
import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { RestoreWriteOptions } from '@libs/providers/provider-restore.js';
import type { LicenceCheck } from './licence-check.js';
import type { GraphApiClient, GraphObject } from '@libs/providers/entra/graph-api-client.js';

/** The app registration a connection calls Graph as: a restore never locks it out. */
export interface OwnApp {
  /** its application (client) id, the `appId` of its application and service principal */
  clientId: string;
  /**
   * the object id of its service principal in the tenant, which holds its Graph permissions (app
   * role assignments) and directory roles: learnt by the restorer's `prepare`, undefined before
   * or when the tenant has none
   */
  servicePrincipalId?: string;
}

/** What an Entra definition's writes are given. */
export interface EntraWriteContext {
  graph: GraphApiClient;
  options: RestoreWriteOptions;
  signal?: AbortSignal;
  own: OwnApp;
  /** the tenant's subscriptions, when the restore read them (licence-check.ts) */
  licences?: LicenceCheck;
}

/**
 * How a restore writes one Entra ID type through Graph v1.0 (kit type-restore-definition.ts has
 * the members), with endpoints and rules from each operation's Graph API reference page, and:
 */
export interface EntraRestoreDefinition extends TypeRestoreDefinition<EntraWriteContext> {
  /**
   * Why a restore must never change or remove this live object (the connection's own app
   * registration and service principal, users Active Directory syncs), or null.
   */
  protectedBecause?(data: GraphObject, own: OwnApp): string | null;
}

/**
 * Top-level properties Graph sets itself (read-only in the v1.0 CSDL or the reference pages'
 * property tables): never written, never compared by default.
 */
export const ENTRA_SERVER_OWNED: readonly string[] = [
  'id',
  'createdDateTime',
  'deletedDateTime',
  'modifiedDateTime',
  'renewedDateTime',
  'expirationDateTime',
  'onPremisesLastSyncDateTime',
  'securityIdentifier',
  'onPremisesSecurityIdentifier',
];

/**
 * The id Graph gave a created object (`id` of its answer).
 * @throws ProviderRequestError when the answer has none
 */
export function createdId(answer: GraphObject | null, what: string): string {
  const id = answer?.id;
  if (typeof id !== 'string' || id === '')
    throw new ProviderRequestError(`Graph created ${what} without answering its id`, 201);
  return id;
}

/** The `@odata.id` of a directory object, the body of a `$ref` write ("Add member", "Add owner"). */
export function directoryObjectReference(graphOrigin: string, id: string): { '@odata.id': string } {
  return { '@odata.id': new URL(`/v1.0/directoryObjects/${id}`, graphOrigin).href };
}
