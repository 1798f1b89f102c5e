import { idParts } from '@libs/providers/kit/type-restore-definition.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import {
  ENTRA_TYPE_DEFINITIONS,
  type EntraResourceType,
} from '@libs/providers/entra/entra-resource-catalog.js';
import { entraParentOf } from '@libs/providers/entra/entra-catalog-types.js';
import { entraChildRecord, entraRecord } from '@libs/providers/entra/entra-records.js';
import type { EntraRestoreDefinition } from '@libs/providers/entra/restore/entra-restore-definition.js';

/**
 * A type's natural key and the `find` it gives: when Graph's answer to a creation was lost, the
 * live object with the record's key (its parent's list, or the type's, read as a backup reads it:
 * ENTRA_TYPE_DEFINITIONS template, query and `$top`) is the one the creation made, so it is not made
 * twice.
 */
export function keyed(
  type: EntraResourceType,
  naturalKey: (record: ResourceRecord) => string | null,
): Required<Pick<EntraRestoreDefinition, 'naturalKey' | 'find'>> {
  const read = ENTRA_TYPE_DEFINITIONS[type];
  return {
    naturalKey,
    async find(record, context) {
      const wanted = naturalKey(record);
      if (wanted === null) return null;
      const parentId = entraParentOf(read) ? idParts(record.id)[0] : undefined;
      for await (const page of context.graph.pages({
        template: read.template,
        params: parentId === undefined ? {} : { id: parentId },
        query: 'query' in read ? read.query : undefined,
        select: read.select,
        paged: read.top,
        signal: context.signal,
      }))
        for (const object of page) {
          const live =
            parentId === undefined ? entraRecord(type, object) : entraChildRecord(type, parentId, object);
          if (naturalKey(live) === wanted) return live;
        }
      return null;
    },
  };
}
