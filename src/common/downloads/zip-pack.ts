import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';

/** A file already written to the ZIP: its path, and the SHA-256 (hex) and size (bytes) of its content. */
export interface PackedFile {
  path: string;
  sha256: string;
  size: number;
}

/**
 * A file of a pack. `content` is called only when the ZIP reaches the file, with the files
 * written before it (so a closing file can list their digests), and is read as the client reads
 * the ZIP: a source paging rows from the database goes no faster than the download.
 */
export interface PackFile {
  path: string;
  content(before: readonly PackedFile[]): AsyncIterable<string | Buffer>;
}

/**
 * Streams a ZIP (yazl, deflate) of `files` in order, each digested (SHA-256 of its uncompressed
 * bytes) as it passes. Memory holds what is in flight, never a whole file. A source that fails
 * destroys the returned stream with its error (the download is cut short, never completed).
 * @param mtime the time stamped on every entry
 */
export function zipPack(files: readonly PackFile[], mtime: Date): Readable {
  const zip = new ZipFile();
  const output = new PassThrough();
  const fail = (error: Error) => output.destroy(error);
  zip.on('error', fail);
  (zip.outputStream as Readable).on('error', fail).pipe(output);
  const packed: PackedFile[] = [];
  for (const file of files) {
    zip.addReadStreamLazy(file.path, { mtime, compress: true }, (callback) => {
      const source = Readable.from(digested(file, packed), { objectMode: false });
      source.on('error', fail);
      callback(null, source);
    });
  }
  zip.end();
  return output;
}

async function* digested(file: PackFile, packed: PackedFile[]): AsyncGenerator<Buffer> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of file.content(packed)) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    hash.update(bytes);
    size += bytes.length;
    yield bytes;
  }
  packed.push({ path: file.path, sha256: hash.digest('hex'), size });
}

/** A JSON array, one element a line, from a stream of values (each serialized as it comes). */
export async function* jsonArray(values: AsyncIterable<unknown>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const value of values) {
    yield `${first ? '\n' : ',\n'}${JSON.stringify(value)}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

/** JSON Lines: one value a line. */
export async function* jsonLines(values: AsyncIterable<unknown>): AsyncGenerator<string> {
  for await (const value of values) yield `${JSON.stringify(value)}\n`;
}

/**
 * CSV (RFC 4180: CRLF line ends, fields quoted when they hold a quote, comma or line break;
 * null and undefined are empty): a header line of `columns`, then one line per row.
 */
export async function* csvRows<R>(
  columns: ReadonlyArray<readonly [header: string, value: (row: R) => unknown]>,
  rows: AsyncIterable<R>,
): AsyncGenerator<string> {
  const line = (fields: unknown[]) => `${fields.map(csvField).join(',')}\r\n`;
  yield line(columns.map(([header]) => header));
  for await (const row of rows) yield line(columns.map(([, value]) => value(row)));
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  // A leading = + - @ would be read as a formula by a spreadsheet (CSV injection): quoted and prefixed.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe;
}
