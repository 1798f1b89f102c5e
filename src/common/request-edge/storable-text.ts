/*
 * NUL, which PostgreSQL `text` cannot hold ("invalid byte sequence for encoding UTF8: 0x00"),
 * and UTF-16 surrogates that are not part of a pair: the driver would store them as U+FFFD, and
 * `jsonb` refuses them ("Unicode low surrogate must follow a high surrogate").
 */
const NUL = '\u0000';
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether PostgreSQL can store the string as it is: no NUL, no unpaired surrogate. */
export function isStorableText(text: string): boolean {
  return !text.includes(NUL) && !LONE_SURROGATE.test(text);
}

/**
 * The path (`a.b.0`, as the validation pipe names fields) of the first string, or object key,
 * in a parsed query or JSON body that PostgreSQL cannot store; undefined when there is none.
 * Walks with an explicit stack, so the depth of `value` cannot overflow the call stack.
 * A bad key is named with its bad characters replaced by U+FFFD.
 */
export function unstorableTextPath(value: unknown): string | undefined {
  const pending: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return path;
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    for (const [key, child] of Object.entries(current)) {
      const storableKey = isStorableText(key);
      const name = storableKey
        ? key
        : key.replaceAll(NUL, '\ufffd').replace(new RegExp(LONE_SURROGATE, 'g'), '\ufffd');
      const childPath = path ? `${path}.${name}` : name;
      if (!storableKey) return childPath;
      pending.push({ value: child, path: childPath });
    }
  }
  return undefined;
}
