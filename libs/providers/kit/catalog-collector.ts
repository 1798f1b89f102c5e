import type { EncodedRecords } from '@libs/snapshot/encoded-records.js';

import { ProviderError } from '@libs/providers/provider-errors.js';
import type { ParentPass } from './parent-passes.js';

/**
 * The generic walk of a catalogue-driven collection (ProviderConnector.collect), shared by the
 * providers' collectors: the requested types checked and put in the catalogue's order, the parent
 * types whose references children need, the records of a parent's pass, and list pages encoded
 * on worker threads while the next page is fetched. What a provider does differently (Okta's user
 * queries, Graph's delta rounds) is its `part` hook.
 */

/**
 * The requested types (default: all) in the catalogue's dependency order.
 * @param provider the provider's name for the message, e.g. `Okta`, `Entra ID`
 * @throws ProviderError `unknown_resource_type` for a type the catalogue does not hold
 */
export function typesInOrder<Type extends string>(
  catalogue: readonly Type[],
  requested: readonly string[] | undefined,
  provider: string,
): Type[] {
  const wanted = new Set(requested ?? catalogue);
  for (const type of wanted)
    if (!(catalogue as readonly string[]).includes(type))
      throw new ProviderError(`${provider} connectors do not collect "${type}"`, 'unknown_resource_type');
  return catalogue.filter((type) => wanted.has(type));
}

/** The types whose references a part of `types` needs: their parents in the catalogue. */
export function parentTypes<Type>(
  types: readonly Type[],
  parentOf: (type: Type) => Type | undefined,
): Set<Type> {
  const parents = new Set<Type>();
  for (const type of types) {
    const parent = parentOf(type);
    if (parent !== undefined) parents.add(parent);
  }
  return parents;
}

/**
 * One part per type, in the order of `types`, each made by the provider's hook when its turn
 * comes (the consumer has taken the previous one; parts may then stream at the same time).
 * @throws the signal's reason between parts once it aborts; the hook's errors
 */
export async function* partsInOrder<Type, Part>(
  types: readonly Type[],
  part: (type: Type) => Promise<Part> | Part,
  signal?: AbortSignal,
): AsyncGenerator<Part> {
  for (const type of types) {
    signal?.throwIfAborted();
    yield await part(type);
  }
}

/**
 * `items` as they stream, each one's reference kept in `pass` (ParentPasses.begin) when there is
 * one: handed over to the waiting children at the end, or failed with `stopped()` when the stream
 * stops before its end (an error, a consumer that gave up).
 */
export async function* withPass<Item, Ref>(
  items: AsyncIterable<Item>,
  pass: ParentPass<Ref> | undefined,
  refOf: (item: Item) => Ref,
  stopped: () => Error,
): AsyncGenerator<Item> {
  let complete = false;
  try {
    for await (const item of items) {
      pass?.keep(refOf(item));
      yield item;
    }
    complete = true;
    pass?.complete();
  } finally {
    if (!complete) pass?.stop(stopped());
  }
}

/**
 * Each page body's encoding, begun as the body arrives and yielded one page behind, so the worker
 * encodes a page while the next one is fetched (kit page-encoder-pool.ts).
 */
export async function* encodedPages<Body>(
  bodies: AsyncIterable<Body>,
  encode: (body: Body) => Promise<EncodedRecords>,
): AsyncGenerator<EncodedRecords> {
  let pending: Promise<EncodedRecords> | undefined;
  for await (const body of bodies) {
    const next = encode(body);
    // Awaited at its turn; until then (or if the backup stops first) a failure is not "unhandled".
    next.catch(() => undefined);
    if (pending) yield await pending;
    pending = next;
  }
  if (pending) yield await pending;
}
