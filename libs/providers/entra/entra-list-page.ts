import { type EncodedRecords, encodeRecords } from '@libs/snapshot/encoded-records.js';

import { readODataPage } from '@libs/providers/kit/pagers.js';
import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import {
  ENTRA_RESOURCE_TYPES,
  ENTRA_TYPE_DEFINITIONS,
  type EntraResourceType,
} from './entra-resource-catalog.js';
import { entraParentOf } from './entra-catalog-types.js';
import { entraChildRecord, entraRecord } from './entra-records.js';
import { answeredPart } from './entra-shared-listing.js';

/** One page of a Graph list, as fetched, to be encoded for a snapshot on a worker thread. */
export interface EntraListPageTask {
  type: EntraResourceType;
  /** The parent object whose children the page lists (ENTRA_TYPE_DEFINITIONS `parent`). */
  parentId?: string;
  /** The list's path template, for error messages. */
  template: string;
  /** The page's body as received (UTF-8 JSON, an OData collection page), unparsed. */
  body: Uint8Array<ArrayBuffer>;
  /** Left out of the content hashes (the snapshot's `volatileFields`). */
  volatileFields: readonly string[];
  /**
   * A listing shared by several types (entra-shared-listing.ts): the properties of `type`'s own
   * read, and the other types whose records the same objects give, with theirs.
   */
  shared?: {
    properties: readonly string[];
    others: ReadonlyArray<{ type: EntraResourceType; properties: readonly string[] }>;
  };
}

/** A page's records encoded, and those of the other types of a shared listing (`shared`). */
export type EntraEncodedPage = EncodedRecords & {
  others?: Array<{ type: EntraResourceType; records: EncodedRecords }>;
};

const UTF8 = new TextDecoder();

/**
 * Types whose list pages may be encoded away from the collector: collections, top-level or read
 * under a parent, that no other type is read under (the collector keeps a parent's objects for its
 * children), each record made from one object of a page (not embedded in a parent's answer).
 * Users and group memberships above all, most of a tenant.
 */
export const ENCODABLE_TYPES: ReadonlySet<EntraResourceType> = new Set(
  ENTRA_RESOURCE_TYPES.filter((type) => {
    const definition = ENTRA_TYPE_DEFINITIONS[type];
    return (
      (definition.kind === 'top' || (definition.kind === 'child' && !definition.object)) &&
      !ENTRA_RESOURCE_TYPES.some((other) => entraParentOf(ENTRA_TYPE_DEFINITIONS[other]) === type)
    );
  }),
);

/**
 * The page's records encoded as a snapshot stores them: what the collector yields for the page's
 * objects (entra-records.ts `entraRecord`, or `entraChildRecord` under `parentId`), ready for the
 * writer; with `shared`, each object cut to `type`'s properties, and the other types' records too.
 * @throws ProviderRequestError for a body that is not an OData collection page of objects
 */
export function encodeEntraListPage(task: EntraListPageTask): EntraEncodedPage {
  let body: unknown;
  try {
    body = JSON.parse(UTF8.decode(task.body));
  } catch {
    body = undefined;
  }
  const page = readODataPage(body, new URL('https://graph.invalid/'));
  if (!page)
    throw new ProviderRequestError(
      `Graph answered ${task.template} with a body that is not an OData collection`,
      200,
    );
  const { shared } = task;
  if (shared)
    return {
      ...encodeRecords(
        task.type,
        page.items.map((object) => entraRecord(task.type, answeredPart(object, shared.properties))),
        task.volatileFields,
      ),
      others: shared.others.map(({ type, properties }) => ({
        type,
        records: encodeRecords(
          type,
          page.items.map((object) => entraRecord(type, answeredPart(object, properties))),
          task.volatileFields,
        ),
      })),
    };
  return encodeRecords(
    task.type,
    page.items.map((object) =>
      task.parentId === undefined
        ? entraRecord(task.type, object)
        : entraChildRecord(task.type, task.parentId, object),
    ),
    task.volatileFields,
  );
}

/**
 * The `@odata.nextLink` of a Graph page read from its bytes, without parsing the page (the worker
 * does): the first `"@odata.nextLink"` key. Inside a JSON string a quote is escaped, so the
 * unescaped quoted name can only be a member name; the objects of a directory list carry
 * `<property>@odata.nextLink` at most, never the bare name, so it is the page's own.
 * @returns the link's text, or undefined on the last page
 * @throws ProviderRequestError when the member is there but its value is not a JSON string
 */
export function nextLinkOf(body: Uint8Array<ArrayBuffer>, template: string): string | undefined {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const at = bytes.indexOf('"@odata.nextLink"');
  if (at === -1) return undefined;
  // `"@odata.nextLink"`, optional white space, `:`, optional white space, then a string literal.
  const rest = bytes.subarray(at + '"@odata.nextLink"'.length, at + 8192).toString('utf8');
  const literal = /^\s*:\s*("(?:[^"\\]|\\.)*")/.exec(rest);
  if (!literal)
    throw new ProviderRequestError(
      `Graph answered ${template} with an @odata.nextLink that is not a string`,
      200,
    );
  return JSON.parse(literal[1]) as string;
}
