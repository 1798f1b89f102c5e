/** One field an undo puts back (docs/restore.md "Revert one field"). */
export interface UndoField {
  /** the record id, as the diff names it */
  resourceId: string;
  /** the field, as a JSON Pointer (RFC 6901) into the record's data, as the diff's patch names it */
  path: string;
}

/** The reference tokens of a JSON Pointer (RFC 6901 section 3: `~1` is `/`, `~0` is `~`). */
export function pointerTokens(path: string): string[] {
  if (path === '') return [];
  return path
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Json = Record<string, unknown>;

/**
 * `current` (the object as it is now) with the value at each of `paths` taken from `clean` (the
 * object as the clean backup holds it): set where `clean` has it (its parents made where missing),
 * removed where `clean` lacks it. Every other field stays as it is now. Arrays are addressed by
 * index, as the diff's patch does.
 * @returns a new object; `current` is not changed
 */
export function revertFields(current: Json, clean: Json, paths: readonly string[]): Json {
  const result = structuredClone(current);
  for (const path of paths) {
    const tokens = pointerTokens(path);
    if (tokens.length === 0) continue;
    const { found, value } = valueAt(clean, tokens);
    let parent: unknown = result;
    for (const token of tokens.slice(0, -1)) {
      const container = parent as Json;
      if (typeof container[token] !== 'object' || container[token] === null) {
        if (!found) break;
        container[token] = {};
      }
      parent = container[token];
    }
    const last = tokens.at(-1)!;
    if (typeof parent !== 'object' || parent === null) continue;
    if (found) (parent as Json)[last] = structuredClone(value);
    else if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete (parent as Json)[last];
  }
  return result;
}

function valueAt(data: unknown, tokens: readonly string[]): { found: boolean; value?: unknown } {
  let current = data;
  for (const token of tokens) {
    if (typeof current !== 'object' || current === null || !(token in current)) return { found: false };
    current = (current as Json)[token];
  }
  return { found: true, value: current };
}
