import { isUtf8 } from 'node:buffer';

import { type EncodedRecords, encodeRecords } from '@libs/snapshot/encoded-records.js';

import { arrayElementSpans } from '@libs/providers/json-array-spans.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import { parseArray } from './okta-api-client.js';
import {
  type ParentRef,
  type ResourceDefinition,
  type SpecialDefinition,
  parentOf,
} from './okta-catalog-types.js';
import { RESOURCE_DEFINITIONS } from './okta-resource-catalog.js';
import { childItems, keyOf, record } from './okta-records.js';

/**
 * One page of a list, as fetched, to be encoded for a snapshot: a parent's children, or users
 * (`parent` absent).
 */
export interface ListPageTask {
  type: OktaResourceType;
  /** The parent whose children the page lists; absent for users. */
  parent?: ParentRef;
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
 * Types whose pages may be encoded away from the collector: users, and children listed through
 * `Link` headers (so the next page is known without the body), none of them a type's parent (whose
 * records the collector keeps references of). Users, app assignments and group memberships: most
 * of an org.
 */
export const ENCODABLE_TYPES: ReadonlySet<OktaResourceType> = new Set(
  definitions
    .filter(
      ([type, definition]) =>
        !parentTypes.has(type) &&
        (definition.kind === 'users' || (definition.kind === 'child' && !definition.itemsKey)),
    )
    .map(([type]) => type),
);

/**
 * The page's records, redacted and encoded as a snapshot stores them: what the collector would
 * have yielded for the page (okta-records.ts `childItems`, or a user's `record`), ready for the
 * writer. A record whose data is an object of the page as Okta wrote it (nothing redacted) keeps
 * Okta's text in its line (DESIGN section 5: each record keeps the provider's JSON), when the body
 * is valid UTF-8 and the object's text holds no line break.
 * @throws ProviderRequestError for a body that is not a JSON array of objects, or an object
 *   without a key
 */
export function encodeListPage(task: ListPageTask): EncodedRecords {
  const { type, parent, body } = task;
  const definition = RESOURCE_DEFINITIONS[type] as ResourceDefinition;
  const page = parseArray(UTF8.decode(body), task.template);
  const records =
    definition.kind === 'child' && parent
      ? childItems(type, definition, parent, task, page).map((each) => each.record)
      : page.map((object) =>
          record(type, keyOf(object, task), (definition as SpecialDefinition).name(object), object),
        );
  const asWritten = records.some((each, index) => each.data === page[index]) && isUtf8(body);
  const spans = asWritten ? arrayElementSpans(body) : undefined;
  const dataText =
    spans?.length === 2 * page.length
      ? (index: number) =>
          records[index].data === page[index] && spans[2 * index] !== -1
            ? body.subarray(spans[2 * index], spans[2 * index + 1])
            : undefined
      : undefined;
  return encodeRecords(type, records, task.volatileFields, dataText);
}
