import { type EncodedRecords, encodeRecords } from '@libs/snapshot/encoded-records.js';

import type { OktaResourceType } from '../resource-types.js';
import { parseArray } from './okta-api-client.js';
import {
  type ChildDefinition,
  type ParentRef,
  type ResourceDefinition,
  RESOURCE_DEFINITIONS,
  parentOf,
} from './okta-resource-catalog.js';
import { childItems } from './okta-records.js';

/** One page of a parent's children, as fetched, to be encoded for a snapshot. */
export interface ChildPageTask {
  type: OktaResourceType;
  parent: ParentRef;
  /** The list's endpoint template, for error messages. */
  template: string;
  /** The page's body as received (UTF-8), unparsed. */
  body: Uint8Array<ArrayBuffer>;
  /** Left out of the content hashes (the snapshot's `volatileFields`). */
  volatileFields: readonly string[];
}

const UTF8 = new TextDecoder();

const definitions = Object.entries(RESOURCE_DEFINITIONS) as [OktaResourceType, ResourceDefinition][];
const parentTypes = new Set(definitions.map(([, definition]) => parentOf(definition)));

/**
 * Types whose pages may be encoded away from the collector: children listed through `Link`
 * headers (so the next page is known without the body) that are no type's parent (whose records
 * the collector keeps references of). App assignments and group memberships, most of an org.
 */
export const ENCODABLE_TYPES: ReadonlySet<OktaResourceType> = new Set(
  definitions
    .filter(
      ([type, definition]) => definition.kind === 'child' && !definition.itemsKey && !parentTypes.has(type),
    )
    .map(([type]) => type),
);

/**
 * The page's records, redacted and encoded as a snapshot stores them: what the collector would
 * have yielded for the page (okta-records.ts `childItems`), ready for the writer.
 * @throws ProviderRequestError for a body that is not a JSON array of objects, or an object
 *   without a key
 */
export function encodeChildPage(task: ChildPageTask): EncodedRecords {
  const definition = RESOURCE_DEFINITIONS[task.type] as ChildDefinition;
  const page = parseArray(UTF8.decode(task.body), task.template);
  const items = childItems(task.type, definition, task.parent, task, page);
  return encodeRecords(
    task.type,
    items.map((each) => each.record),
    task.volatileFields,
  );
}
