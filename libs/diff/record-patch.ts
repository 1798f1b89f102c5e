import fastJsonPatch, { type Operation } from 'fast-json-patch';

/**
 * A record's data without its volatile fields, at any depth (the same rule as the content hash,
 * `libs/snapshot/content-hash.ts`), so that a patch never shows a change the hash ignored.
 */
export function withoutVolatile(value: unknown, volatile: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutVolatile(item, volatile));
  if (typeof value !== 'object' || value === null) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!volatile.has(key)) kept[key] = withoutVolatile(item, volatile);
  }
  return kept;
}

/**
 * The field-level changes from `before` to `after` as RFC 6902 JSON Patch operations, each
 * `replace` and `remove` preceded by a `test` of the old value (fast-json-patch's invertible
 * form), so the patch shows what was there and can be checked before it is applied or undone.
 * Volatile fields are left out of both sides.
 * @param before, after record data (either may be `{}` for a record that appears or goes)
 */
export function recordPatch(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  volatile: ReadonlySet<string>,
): Operation[] {
  return fastJsonPatch.compare(
    withoutVolatile(before, volatile) as object,
    withoutVolatile(after, volatile) as object,
    true,
  );
}
