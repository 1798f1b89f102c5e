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
  return write(value, omitKeys);
}

// Built by string concatenation: V8 joins the pieces as ropes, faster than an array and join.
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
  const prototype = Object.getPrototypeOf(object) as unknown;
  if (prototype !== Object.prototype && prototype !== null) {
    throw new TypeError(`canonical JSON takes plain objects only, not ${object.constructor.name}`);
  }
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
