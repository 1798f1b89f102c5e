import { describe, expect, it } from '@jest/globals';
import { commaJoinedLines } from './comma-joined-lines.js';

async function joined(...chunks: string[]): Promise<string> {
  async function* source() {
    for (const chunk of chunks) yield Buffer.from(chunk);
  }
  let out = '';
  for await (const piece of commaJoinedLines(source())) out += piece.toString();
  return out;
}

describe('commaJoinedLines', () => {
  it('joins newline-terminated lines with commas, wherever the chunks split them', async () => {
    expect(await joined('{"a":1}\n{"b":"x\\ny"}\n')).toBe('{"a":1},{"b":"x\\ny"}');
    expect(await joined('{"a"', ':1}\n{"b"', ':2}\n')).toBe('{"a":1},{"b":2}');
    expect(await joined('{"a":1}\n', '{"b":2}\n', '{"c":3}\n')).toBe('{"a":1},{"b":2},{"c":3}');
    expect(await joined('{"a":1}', '\n', '{"b":2}\n')).toBe('{"a":1},{"b":2}');
  });

  it('gives nothing for no lines, and one value for one line', async () => {
    expect(await joined()).toBe('');
    expect(await joined('', '')).toBe('');
    expect(await joined('[1]\n')).toBe('[1]');
  });

  it('makes a JSON array of many rows that parses back to them', async () => {
    const rows = Array.from({ length: 500 }, (_, i) => ({ i, text: `line ${i}\n"quoted" \\ é` }));
    const text = rows.map((row) => `${JSON.stringify(row)}\n`).join('');
    const chunks = text.match(/[\s\S]{1,97}/g)!;
    expect(JSON.parse(`[${await joined(...chunks)}]`)).toEqual(rows);
  });
});
