import type { LiveResource } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import {
  type Created,
  createdId,
  idParts,
  omit,
  type RestoreDefinition,
  SERVER_OWNED,
  type WriteContext,
} from './restore-definition.js';

/** How one Okta collection is written: its endpoints and lifecycle rules. */
export interface CollectionWrites {
  /** The list path objects are created at (POST), e.g. `/api/v1/policies/{policyId}/rules`. */
  path: string;
  /**
   * Path parameters named by the record id's components in order, the object's own last:
   * `['policyId', 'ruleId']` for `<policyId>:<ruleId>`. The item path is `path/{last}`.
   */
  params: readonly string[];
  /** How Okta replaces an object: PUT (default) or POST to the item path; null when it cannot. */
  updateMethod?: 'PUT' | 'POST' | null;
  /** No DELETE: the object can only be changed. */
  noDelete?: true;
  /** `item/lifecycle/activate` and `/deactivate` set `status` (ACTIVE or INACTIVE). */
  lifecycle?: true;
  /** Okta changes only INACTIVE objects (group rules): deactivate, replace, then activate again. */
  deactivateToUpdate?: true;
  /** Okta deletes only INACTIVE objects (apps, zones, authorization servers): deactivate first. */
  deactivateToDelete?: true;
  /** The body Okta takes, from the writable part (default: it, without `status`). */
  body?(writable: OktaObject): OktaObject;
  /** Query of the creation, e.g. `{ activate: 'false' }`. */
  createQuery?: Record<string, string>;
  /** The key of a created object when it is not the answer's `id` (a feature's `name`). */
  createdKey?(answer: OktaObject, record: ResourceRecord): string;
}

/** The statuses `lifecycle/activate|deactivate` move between. */
const LIFECYCLE_STATUSES = ['ACTIVE', 'INACTIVE'];

/**
 * A RestoreDefinition for the usual Okta collection (see CollectionWrites), merged with `extra`
 * (writable fields, natural key, sequence, notes...), which wins where both define a member.
 */
export function collectionDefinition(
  writes: CollectionWrites,
  extra: Omit<RestoreDefinition, 'create' | 'update' | 'remove'> &
    Partial<Pick<RestoreDefinition, 'create' | 'update' | 'remove'>> = {},
): RestoreDefinition {
  const writable = extra.writable ?? ((data: OktaObject) => omit(data, SERVER_OWNED));
  const body = writes.body ?? ((data: OktaObject) => omit(data, ['status']));
  const itemPath = `${writes.path}/{${writes.params[writes.params.length - 1]}}`;
  const paramsOf = (recordId: string): Record<string, string> => {
    const parts = idParts(recordId);
    if (parts.length !== writes.params.length)
      throw new Error(`Record id ${recordId} does not name ${writes.params.join(', ')}`);
    return Object.fromEntries(writes.params.map((name, index) => [name, parts[index]]));
  };
  const setStatus = async (recordId: string, status: string | undefined, context: WriteContext) => {
    if (!writes.lifecycle || status === undefined || !LIFECYCLE_STATUSES.includes(status)) return;
    await context.api.write({
      method: 'POST',
      template: `${itemPath}/lifecycle/${status === 'ACTIVE' ? 'activate' : 'deactivate'}`,
      params: paramsOf(recordId),
      signal: context.signal,
    });
  };

  const create = async (record: ResourceRecord, context: WriteContext): Promise<Created> => {
    const parents = idParts(record.id).slice(0, -1);
    const answer = (await context.api.write({
      method: 'POST',
      template: writes.path,
      params: Object.fromEntries(writes.params.slice(0, -1).map((name, index) => [name, parents[index]])),
      query: writes.createQuery,
      body: body(writable(record.data)),
      signal: context.signal,
    })) as OktaObject;
    const key = writes.createdKey?.(answer, record) ?? createdId(answer, record.type);
    const id = [...parents, key].join(':');
    const wanted = record.data.status;
    if (typeof wanted === 'string' && answer.status !== wanted) await setStatus(id, wanted, context);
    return { id };
  };

  const update = async (record: ResourceRecord, live: LiveResource, context: WriteContext) => {
    const wanted = typeof record.data.status === 'string' ? record.data.status : undefined;
    if (writes.deactivateToUpdate && live.status === 'ACTIVE') await setStatus(live.id, 'INACTIVE', context);
    await context.api.write({
      method: writes.updateMethod ?? 'PUT',
      template: itemPath,
      params: paramsOf(live.id),
      body: body(writable(record.data)),
      signal: context.signal,
    });
    const now = writes.deactivateToUpdate && live.status === 'ACTIVE' ? 'INACTIVE' : live.status;
    if (wanted !== now) await setStatus(live.id, wanted, context);
    return [];
  };

  const remove = async (live: LiveResource, context: WriteContext) => {
    if (writes.deactivateToDelete && live.status === 'ACTIVE') await setStatus(live.id, 'INACTIVE', context);
    await context.api.write({
      method: 'DELETE',
      template: itemPath,
      params: paramsOf(live.id),
      okOn: [404],
      signal: context.signal,
    });
  };

  return {
    writable,
    create,
    ...(writes.updateMethod === null ? {} : { update }),
    ...(writes.noDelete ? {} : { remove }),
    ...extra,
  };
}
