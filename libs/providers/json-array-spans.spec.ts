import { describe, expect, it } from '@jest/globals';

import { arrayElementSpans } from './json-array-spans.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

/** The text of each element the spans give, -1 spans as null. */
function elements(text: string): (string | null)[] {
  const body = utf8(text);
  const spans = arrayElementSpans(body);
  return Array.from({ length: spans.length / 2 }, (_, i) =>
    spans[2 * i] === -1 ? null : new TextDecoder().decode(body.subarray(spans[2 * i], spans[2 * i + 1])),
  );
}

describe('arrayElementSpans', () => {
  it('finds each object of a compact array, as JSON.stringify writes it', () => {
    const objects = [{ id: 'a', profile: { tags: ['x', 'y'] } }, { id: 'b' }, {}];

    expect(elements(JSON.stringify(objects))).toEqual(objects.map((each) => JSON.stringify(each)));
  });

  it('is not misled by brackets, quotes and backslashes inside strings', () => {
    const objects = [
      { note: 'a } ] { [ , "quoted" }' },
      { path: 'C:\\dir\\', next: '\\"' },
      { empty: '', escaped: '\u0000\n\t' },
      { last: '\\\\' },
    ];

    expect(elements(JSON.stringify(objects)).map((text) => JSON.parse(text as string))).toEqual(objects);
  });

  it('counts bytes, not characters, in UTF-8 text', () => {
    const text = '[{"name":"Zoë Łukasiewicz 👩‍💻"},{"name":"李"}]';

    expect(elements(text)).toEqual(['{"name":"Zoë Łukasiewicz 👩‍💻"}', '{"name":"李"}']);
  });

  it("keeps a provider's own escapes and spaces, and leaves out what lies between elements", () => {
    const text = '[ {"a": "caf\\u00e9", "b": "\\/x"} ,\t[1, {"c": 2}] ]';

    expect(elements(text)).toEqual(['{"a": "caf\\u00e9", "b": "\\/x"}', '[1, {"c": 2}]']);
  });

  it('marks an element whose text holds a line break, which one NDJSON line cannot hold', () => {
    const text = `[\n${JSON.stringify([{ id: 'a', p: { q: 1 } }, { id: 'b' }], null, 2).slice(1, -1)}\r\n,{"id":"c"}]`;

    expect(elements(text)).toEqual([null, null, '{"id":"c"}']);
  });

  it('agrees with JSON.parse on a thousand generated arrays', () => {
    let seed = 7;
    const next = (below: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % below;
    };
    const alphabet = ['a', '"', '\\', '{', '}', '[', ']', ',', ':', '\n', 'é', '👩', '\u0001', ' '];
    const text = () => Array.from({ length: next(6) }, () => alphabet[next(alphabet.length)]).join('');
    const value = (depth: number): unknown => {
      const kind = next(depth > 2 ? 3 : 5);
      if (kind === 0) return text();
      if (kind === 1) return next(1000) / 7;
      if (kind === 2) return [null, true, false][next(3)];
      if (kind === 3) return Array.from({ length: next(3) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: next(4) }, () => [text(), value(depth + 1)]));
    };

    for (let round = 0; round < 1000; round++) {
      const array = Array.from({ length: next(5) }, () =>
        next(2) === 0 ? Object.fromEntries([[text(), value(1)]]) : [value(1)],
      );
      const spaced =
        next(2) === 0 ? JSON.stringify(array) : JSON.stringify(array, null, '\t').replaceAll('\n', ' ');

      expect(elements(spaced).map((each) => JSON.parse(each as string) as unknown)).toEqual(array);
    }
  });

  it('counts no elements in an empty array, and skips strings, numbers and literals', () => {
    expect(elements('[]')).toEqual([]);
    expect(elements('["[", 1, true, null, {"id":"a"}]')).toEqual(['{"id":"a"}']);
  });
});
