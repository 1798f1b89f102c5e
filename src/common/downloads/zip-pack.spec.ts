import { createHash } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { csvRows, jsonArray, jsonLines, type PackedFile, zipPack } from './zip-pack.js';

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let all = '';
  for await (const chunk of chunks) all += chunk;
  return all;
}

async function* of<T>(...values: T[]): AsyncGenerator<T> {
  yield* values;
}

describe('jsonArray and jsonLines', () => {
  it('write valid JSON one element a line, empty or not', async () => {
    expect(await text(jsonArray(of()))).toBe('[]\n');
    const written = await text(jsonArray(of<unknown>({ a: 1 }, 'two', null)));
    expect(JSON.parse(written)).toEqual([{ a: 1 }, 'two', null]);
    expect(written).toBe('[\n{"a":1},\n"two",\nnull\n]\n');
    expect(await text(jsonLines(of({ a: 1 }, { b: 2 })))).toBe('{"a":1}\n{"b":2}\n');
  });
});

describe('csvRows', () => {
  it('quotes what RFC 4180 needs quoted, leaves null empty, and defuses spreadsheet formulas', async () => {
    const rows = of<Record<string, unknown>>(
      { a: 'plain', b: 3 },
      { a: 'with, comma', b: null },
      { a: 'say "hi"\nthen', b: undefined },
      { a: '=HYPERLINK("x")', b: -1 },
    );
    const written = await text(
      csvRows<Record<string, unknown>>(
        [
          ['a', (row) => row.a],
          ['b', (row) => row.b],
        ],
        rows,
      ),
    );
    expect(written).toBe(
      'a,b\r\nplain,3\r\n"with, comma",\r\n"say ""hi""\nthen",\r\n"\'=HYPERLINK(""x"")",-1\r\n',
    );
  });
});

describe('zipPack', () => {
  it('streams each file when the archive reaches it, with the digests of those before', async () => {
    const seen: string[][] = [];
    const stream = zipPack(
      [
        { path: 'a.txt', content: () => of('hello ', 'world') },
        {
          path: 'SUMS',
          content: (before: readonly PackedFile[]) => {
            seen.push(before.map((file) => `${file.path} ${file.sha256} ${file.size}`));
            return of(before.map((file) => file.sha256).join('\n'));
          },
        },
      ],
      new Date('2026-01-01T00:00:00Z'),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const zip = Buffer.concat(chunks);
    const digest = createHash('sha256').update('hello world').digest('hex');
    expect(seen).toEqual([[`a.txt ${digest} 11`]]);
    // The first local header's data (a data descriptor follows it: sizes are in the central directory).
    const nameLength = zip.readUInt16LE(26);
    expect(zip.toString('utf8', 30, 30 + nameLength)).toBe('a.txt');
    expect(zip.includes(Buffer.from('SUMS'))).toBe(true);
    const deflated = zip.subarray(30 + nameLength + zip.readUInt16LE(28));
    expect(inflateRawSync(deflated, { finishFlush: 2 }).toString('utf8').startsWith('hello world')).toBe(
      true,
    );
  });

  it('cuts the stream short with the error of a source that fails', async () => {
    const stream = zipPack(
      [
        {
          path: 'broken.json',
          content: async function* () {
            yield '[';
            throw new Error('database gone');
          },
        },
      ],
      new Date(),
    );
    await expect(
      (async () => {
        for await (const chunk of stream) void chunk;
      })(),
    ).rejects.toThrow('database gone');
  });
});
