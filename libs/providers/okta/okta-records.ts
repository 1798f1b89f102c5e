import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import type { ListRequest, OktaObject } from './okta-api-client.js';
import { redact } from './okta-not-captured.js';
import type { ChildDefinition, ParentRef } from './okta-catalog-types.js';

/** A record, and what its children will need from it. */
export interface Item {
  record: ResourceRecord;
  keys?: Record<string, string>;
}

/** A record of `object` with its name and remembered keys; secrets are removed from the data. */
export function item(
  type: OktaResourceType,
  id: string,
  definition: {
    name: (object: OktaObject) => string | null;
    remember?: (object: OktaObject) => Record<string, string>;
  },
  object: OktaObject,
): Item {
  return { record: record(type, id, definition.name(object), object), keys: definition.remember?.(object) };
}

/** The record of `data`, with secrets removed (okta-not-captured.ts). */
export function record(
  type: OktaResourceType,
  id: string,
  name: string | null,
  data: OktaObject,
): ResourceRecord {
  return { type, id, name, data: redact(type, data) };
}

/**
 * The items of one page of `parent`'s children, with ids `<parentId>:<childId>`
 * (okta-resource-types.ts).
 * @throws ProviderRequestError for an object without a key
 */
export function childItems(
  type: OktaResourceType,
  definition: ChildDefinition,
  parent: ParentRef,
  list: Pick<ListRequest, 'template'>,
  page: readonly OktaObject[],
): Item[] {
  return page.map((object) => {
    const childId = keyOf(object, list, definition.key);
    const id = `${parent.id}:${childId}`;
    if (definition.data)
      return { record: record(type, id, definition.name(object), definition.data(parent, childId)) };
    return item(type, id, definition, object);
  });
}

/**
 * The object's key: its Okta `id`, or what `key` reads. An object without one is a broken
 * answer, not something to skip.
 * @throws ProviderRequestError
 */
export function keyOf(
  object: OktaObject,
  list: Pick<ListRequest, 'template'>,
  key?: (object: OktaObject) => string | null,
): string {
  const value = key ? key(object) : object.id;
  if (typeof value !== 'string' || value === '') {
    throw new ProviderRequestError(`Okta listed an object without an id at GET ${list.template}`, 200);
  }
  return value;
}
