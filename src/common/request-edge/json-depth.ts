const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether UTF-8 JSON text nests arrays and objects deeper than `maxDepth`, read byte by byte
 * before anything parses it: one pass, no allocation, no recursion, so a body built to be deep
 * costs the server no more than its length. Brackets inside strings do not count (a backslash
 * skips the byte it escapes). Malformed text is left to the parser.
 *
 * UTF-8 only: no byte of a multi-byte UTF-8 sequence is an ASCII bracket or quote.
 */
export function jsonNestsDeeperThan(json: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < json.length; index++) {
    const byte = json[index];
    if (inString) {
      if (byte === BACKSLASH) index++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > maxDepth) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}
