import { inOrderConcurrent } from '@libs/providers/kit/in-order-concurrent.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import type {
  ChildObjectsDefinition,
  DerivedDefinition,
  ParentRef,
  SingleDefinition,
} from './okta-catalog-types.js';
import type { OktaHookContext } from './okta-collector-hooks.js';
import { record, type Item } from './okta-records.js';

/**
 * The catalogue kinds that read fixed objects rather than lists (OktaCollector): one object of
 * the org (`single`), fixed objects under each parent (`child_objects`), and records made from a
 * parent's remembered values (`derived`). Each yields pages of items, as the list kinds do.
 */

type Pages = AsyncGenerator<Item[]>;

/** The org's one object of `type`; none when it answers 404. */
export async function* single(
  { api }: OktaHookContext,
  type: OktaResourceType,
  definition: SingleDefinition,
  signal?: AbortSignal,
): Pages {
  const object = await api.object({ template: definition.template, emptyOn: [404], signal });
  if (object) yield [{ record: record(type, definition.id, definition.name(object), object) }];
}

/**
 * The fixed objects of each parent it `applies` to, `width` parents at once, in parent order.
 * @param parents the parent's references, asked for when the first page is
 */
export async function* childObjects(
  context: OktaHookContext,
  type: OktaResourceType,
  definition: ChildObjectsDefinition,
  parents: () => Promise<ParentRef[]>,
  signal?: AbortSignal,
): Pages {
  const all = await parents();
  const wanted = definition.applies ? all.filter(definition.applies) : all;
  const open = (parent: ParentRef) => objectsOf(context, type, definition, parent, signal);
  yield* inOrderConcurrent(wanted, open, context.width);
}

/** The parent's fixed objects, one request each; those answering `emptyOn` have no record. */
async function* objectsOf(
  { api }: OktaHookContext,
  type: OktaResourceType,
  definition: ChildObjectsDefinition,
  parent: ParentRef,
  signal?: AbortSignal,
): Pages {
  const params = definition.params(parent);
  const emptyOn = definition.emptyOn ?? [404];
  for (const { key, template } of definition.objects) {
    const object = await api.object({ template, params, emptyOn, signal });
    if (object) yield [{ record: record(type, `${parent.id}:${key}`, definition.name(object), object) }];
  }
}

/** One page: the record each parent's remembered values derive, without a request. */
export async function* derived(
  type: OktaResourceType,
  definition: DerivedDefinition,
  parents: () => Promise<ParentRef[]>,
): Pages {
  const items: Item[] = [];
  for (const parent of await parents()) {
    const child = definition.derive(parent);
    if (child) items.push({ record: record(type, `${parent.id}:${child.key}`, null, child.data) });
  }
  yield items;
}
