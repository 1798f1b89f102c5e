const NO_KEYS: ReadonlySet<string> = new Set();

/**
 * Canonical JSON in the style of RFC 8785 (JCS): object keys sorted by UTF-16 code units, no
 * whitespace, strings and numbers as ECMAScript's JSON.stringify writes them (which is what JCS
 * specifies, section 3.2.2), `undefined` members left out as JSON.stringify does. Equal JSON values
 * give equal strings whatever their key order, so their hashes compare.
 *
 * @param value JSON data: null, booleans, finite numbers, strings, arrays and plain objects
 * @param omitKeys object member names to leave out at any depth (see `contentHash`)
 * @throws TypeError for anything JSON cannot hold exactly (NaN, Infinity, bigint, Date, Map...)
 */
export function canonicalJson(value: unknown, omitKeys: ReadonlySet<string> = NO_KEYS): string {
  const sorted = sortedCopy(value, omitKeys);
  return sorted === UNORDERABLE ? write(value, omitKeys) : JSON.stringify(sorted);
}

/** An object whose keys a plain object cannot hold in canonical order (below). */
const UNORDERABLE = Symbol('unorderable');

/**
 * A copy of `value` whose objects have their keys inserted in canonical order, without `omitKeys`,
 * for the native JSON.stringify to write: one flat string instead of thousands of string pieces,
 * which made hashing the biggest source of garbage of a backup. JavaScript lists integer-like keys
 * ("0", "12") first whatever the insertion order (ECMA-262 OrdinaryOwnPropertyKeys), so an object
 * with a key that starts with a digit answers UNORDERABLE and the whole value takes `write`; so does
 * a `__proto__` member (JSON.parse makes it an own property, an assignment would set the prototype).
 * @throws TypeError as canonicalJson does
 */
function sortedCopy(value: unknown, omitKeys: ReadonlySet<string>): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON has no form for ${value}`);
      return value;
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        const items = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i += 1) {
          const item = sortedCopy(value[i] ?? null, omitKeys);
          if (item === UNORDERABLE) return UNORDERABLE;
          items[i] = item;
        }
        return items;
      }
      assertPlain(value);
      const record = value as Record<string, unknown>;
      const copy: Record<string, unknown> = {};
      for (const key of sortKeys(Object.keys(record))) {
        const item = record[key];
        if (item === undefined || omitKeys.has(key)) continue;
        const code = key.charCodeAt(0);
        if ((code >= 0x30 && code <= 0x39) || key === '__proto__') return UNORDERABLE;
        const sorted = sortedCopy(item, omitKeys);
        if (sorted === UNORDERABLE) return UNORDERABLE;
        copy[key] = sorted;
      }
      return copy;
    }
    default:
      throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
  }
}

// For values with integer-like keys. Built by string concatenation: V8 joins the pieces as ropes,
// faster than an array and join.
function write(value: unknown, omitKeys: ReadonlySet<string>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON has no form for ${value}`);
      return JSON.stringify(value);
    case 'object':
      if (value === null) return 'null';
      return Array.isArray(value) ? writeArray(value, omitKeys) : writeObject(value, omitKeys);
    default:
      throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
  }
}

function writeArray(items: unknown[], omitKeys: ReadonlySet<string>): string {
  let out = '[';
  for (let i = 0; i < items.length; i += 1) {
    if (i > 0) out += ',';
    // As JSON.stringify: a hole or undefined in an array is null.
    out += write(items[i] ?? null, omitKeys);
  }
  return `${out}]`;
}

function writeObject(object: object, omitKeys: ReadonlySet<string>): string {
  assertPlain(object);
  const record = object as Record<string, unknown>;
  let out = '{';
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined || omitKeys.has(key)) continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(key)}:${write(item, omitKeys)}`;
  }
  return `${out}}`;
}

function assertPlain(object: object): void {
  const prototype = Object.getPrototypeOf(object) as unknown;
  if (prototype !== Object.prototype && prototype !== null) {
    throw new TypeError(`canonical JSON takes plain objects only, not ${object.constructor.name}`);
  }
}

/** Above this many keys, insertion sort's quadratic time outweighs what it saves. */
const INSERTION_SORT_MAX_KEYS = 32;

/**
 * Sorts `keys` in place by UTF-16 code units (as `sort()` does) and returns it. Insertion sort for
 * the few keys most objects have: Array.prototype.sort allocated about 900 bytes per call for its
 * work array, once per object of every record hashed.
 */
function sortKeys(keys: string[]): string[] {
  if (keys.length > INSERTION_SORT_MAX_KEYS) return keys.sort();
  for (let i = 1; i < keys.length; i += 1) {
    const key = keys[i];
    let j = i - 1;
    for (; j >= 0 && keys[j] > key; j -= 1) keys[j + 1] = keys[j];
    keys[j + 1] = key;
  }
  return keys;
}
