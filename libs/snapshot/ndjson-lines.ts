import { StringDecoder } from 'node:string_decoder';

/**
 * Splits a byte stream into its lines (NDJSON: one JSON value per `\n`-terminated line), decoding
 * UTF-8 across chunk boundaries. Holds one partial line at a time. A final line without `\n` is
 * still given; empty lines are skipped.
 */
export async function* ndjsonLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  for await (const chunk of chunks) {
    const lines = (partial + decoder.write(chunk)).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line !== '') yield line;
  }
  const last = partial + decoder.end();
  if (last !== '') yield last;
}
