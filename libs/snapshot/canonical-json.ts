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
  const out: string[] = [];
  write(value, omitKeys, out);
  return out.join('');
}

function write(value: unknown, omitKeys: ReadonlySet<string>, out: string[]): void {
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON has no form for ${value}`);
      out.push(JSON.stringify(value));
      return;
    case 'object':
      if (value === null) out.push('null');
      else if (Array.isArray(value)) writeArray(value, omitKeys, out);
      else writeObject(value, omitKeys, out);
      return;
    default:
      throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
  }
}

function writeArray(items: unknown[], omitKeys: ReadonlySet<string>, out: string[]): void {
  out.push('[');
  items.forEach((item, i) => {
    if (i > 0) out.push(',');
    // As JSON.stringify: a hole or undefined in an array is null.
    write(item ?? null, omitKeys, out);
  });
  out.push(']');
}

function writeObject(object: object, omitKeys: ReadonlySet<string>, out: string[]): void {
  const prototype = Object.getPrototypeOf(object) as unknown;
  if (prototype !== Object.prototype && prototype !== null) {
    throw new TypeError(`canonical JSON takes plain objects only, not ${object.constructor.name}`);
  }
  const record = object as Record<string, unknown>;
  out.push('{');
  let first = true;
  for (const key of Object.keys(record).sort()) {
    if (record[key] === undefined || omitKeys.has(key)) continue;
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    write(record[key], omitKeys, out);
  }
  out.push('}');
}
