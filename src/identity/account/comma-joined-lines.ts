const NEWLINE = 0x0a;
const COMMA = Buffer.from(',');

/**
 * Turns a stream of newline-terminated lines (PostgreSQL's COPY TO output, one JSON value a
 * line) into the same values joined by commas, the inside of a JSON array, without ever holding
 * more than one chunk: `a\nb\n` gives `a,b`. Chunks may split lines anywhere. The newlines are
 * replaced in place, no byte is copied: a copy of every chunk would double the garbage Buffers an
 * export of 60 MB leaves for the collector (the memory figure in docs/account.md).
 * @param source bytes the caller gives up (they are changed); a line must not hold a raw newline
 *   (jsonb's text never does)
 */
export async function* commaJoinedLines(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let pending = false; // a newline ended the previous chunk: a comma is owed if anything follows
  for await (const chunk of source) {
    if (chunk.length === 0) continue;
    const ends = chunk[chunk.length - 1] === NEWLINE;
    const body = ends ? chunk.subarray(0, -1) : chunk;
    for (let at = body.indexOf(NEWLINE); at !== -1; at = body.indexOf(NEWLINE, at + 1)) body[at] = COMMA[0];
    if (pending) yield COMMA;
    if (body.length) yield body;
    pending = ends;
  }
}
