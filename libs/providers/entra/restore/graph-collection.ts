import { idParts, omit } from '@libs/providers/kit/type-restore-definition.js';
import type { LiveResource } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { GraphObject } from '@libs/providers/entra/graph-api-client.js';
import {
  createdId,
  ENTRA_SERVER_OWNED,
  type EntraRestoreDefinition,
  type EntraWriteContext,
} from './entra-restore-definition.js';

/** How one Graph collection is written ("Create x", "Update x", "Delete x" of its reference). */
export interface GraphCollectionWrites {
  /** The collection's path (POST creates there), e.g. `/v1.0/groups/{groupId}/owners`. */
  path: string;
  /**
   * Path parameters named by the record id's components in order, the object's own last:
   * `['id']` for a top-level object, `['applicationId', 'id']` for `<applicationId>:<id>`. The
   * item path is `path/{last}`.
   */
  params: readonly string[];
  /** The body of a creation, from the writable part (default: it). */
  createBody?(writable: GraphObject, record: ResourceRecord): GraphObject;
  /** The body of an update (default: as a creation's). */
  updateBody?(writable: GraphObject, record: ResourceRecord): GraphObject;
  /** No DELETE: the object can only be changed. */
  noDelete?: true;
}

/**
 * An EntraRestoreDefinition for the usual Graph collection: create by POST to the collection
 * (the answer's `id` names the object), update by PATCH of the item, remove by DELETE of the item
 * (404: gone already). `extra` wins where both define a member.
 */
export function graphCollection(
  writes: GraphCollectionWrites,
  extra: Partial<EntraRestoreDefinition> = {},
): EntraRestoreDefinition {
  const writable = extra.writable ?? ((data: GraphObject) => omit(data, ENTRA_SERVER_OWNED));
  const createBody = writes.createBody ?? ((data: GraphObject) => data);
  const updateBody = writes.updateBody ?? createBody;
  const ownParam = writes.params[writes.params.length - 1];
  const itemTemplate = `${writes.path}/{${ownParam}}`;
  const paramsOf = (recordId: string): Record<string, string> => {
    const parts = idParts(recordId);
    if (parts.length !== writes.params.length)
      throw new Error(`Record id ${recordId} does not name ${writes.params.join(', ')}`);
    return Object.fromEntries(writes.params.map((name, index) => [name, parts[index]]));
  };

  const create = async (record: ResourceRecord, context: EntraWriteContext) => {
    const parents = idParts(record.id).slice(0, -1);
    const answer = await context.graph.write({
      method: 'POST',
      template: writes.path,
      params: Object.fromEntries(writes.params.slice(0, -1).map((name, index) => [name, parents[index]])),
      body: createBody(writable(record.data), record),
      // The parent may have been created a moment ago (Graph replicates with a delay).
      retryNotFound: parents.length > 0,
      signal: context.signal,
    });
    return { id: [...parents, createdId(answer, record.type)].join(':') };
  };
  const update = async (record: ResourceRecord, live: LiveResource, context: EntraWriteContext) => {
    await context.graph.write({
      method: 'PATCH',
      template: itemTemplate,
      params: paramsOf(live.id),
      body: updateBody(writable(record.data), record),
      signal: context.signal,
    });
    return [];
  };
  const remove = async (live: LiveResource, context: EntraWriteContext) => {
    await context.graph.write({
      method: 'DELETE',
      template: itemTemplate,
      params: paramsOf(live.id),
      okOn: [404],
      signal: context.signal,
    });
  };
  return { writable, create, update, ...(writes.noDelete ? {} : { remove }), ...extra };
}

/**
 * An EntraRestoreDefinition for a singleton (`/v1.0/policies/authorizationPolicy`): never created
 * or deleted, updated by PATCH of its path with the writable part (or `body` of it).
 */
export function graphSingleton(
  path: string,
  extra: Partial<EntraRestoreDefinition> & { body?(writable: GraphObject): GraphObject } = {},
): EntraRestoreDefinition {
  const { body = (data: GraphObject) => data, ...rest } = extra;
  const writable = rest.writable ?? ((data: GraphObject) => omit(data, ENTRA_SERVER_OWNED));
  return {
    writable,
    async update(record, _live, context) {
      await context.graph.write({
        method: 'PATCH',
        template: path,
        body: body(writable(record.data)),
        signal: context.signal,
      });
      return [];
    },
    ...rest,
  };
}
