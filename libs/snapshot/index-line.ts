/** One entry of a content-hash index. */
export interface IndexEntry {
  type: string;
  id: string;
  /** `contentHash(record.data, manifest.volatileFields)` */
  hash: string;
  /** the frame of the part that holds the record */
  frame: number;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Characters from the `,"hash":"` before an index line's hash to the `,"frame":` after it: the
 * 9 of `,"hash":"`, 64 hex digits and the closing quote.
 */
export const HASH_FIELD_CHARS = 74;

/**
 * An index line as the writer makes it, `{"id":<JSON string>,"hash":"<64 hex>","frame":<n>}`,
 * cut by position rather than parsed whole (diff reads hundreds of thousands of them; the
 * shard's digest is checked at its end all the same).
 * @returns undefined for a line of any other shape
 */
export function parseIndexLine(line: string): Omit<IndexEntry, 'type'> | undefined {
  const frameAt = line.lastIndexOf(',"frame":');
  const hashAt = frameAt - HASH_FIELD_CHARS;
  if (!line.startsWith('{"id":"') || !line.endsWith('}') || hashAt < 8) return undefined;
  if (line.slice(hashAt, hashAt + 9) !== ',"hash":"' || line[frameAt - 1] !== '"') return undefined;
  // JSON.parse makes the id and hash strings of their own: a slice would keep the whole text the
  // line was cut from alive (V8 sliced strings), and a restore keeps ids of a whole index (docs/operations.md
  // "When a dependency fails").
  const hash = jsonValue(line.slice(hashAt + 8, frameAt));
  const frame = Number(line.slice(frameAt + 9, -1));
  const id = jsonValue(line.slice(6, hashAt));
  if (
    typeof id !== 'string' ||
    typeof hash !== 'string' ||
    !SHA256_HEX.test(hash) ||
    !Number.isSafeInteger(frame) ||
    frame < 0
  )
    return undefined;
  return { id, hash, frame };
}

function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
