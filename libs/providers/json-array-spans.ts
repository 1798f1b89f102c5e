const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Where each object or array element of a JSON array lies in the array's UTF-8 text, so that a
 * page's records can be stored as the provider wrote them instead of serialized again (a fifth
 * of the cost of encoding an Okta app assignment). Found by brackets and string quotes alone: the
 * text must be one JSON.parse has accepted (RFC 8259), which this does not check again. Elements
 * that are strings, numbers, literals or null are not counted.
 * @param body a JSON array as UTF-8 bytes
 * @returns for the i-th object or array element, its bytes `[spans[2i], spans[2i + 1])`; both -1
 *   for an element whose text holds a line break (pretty-printed), which cannot be one NDJSON line
 */
export function arrayElementSpans(body: Uint8Array): Int32Array {
  const spans: number[] = [];
  let depth = 0;
  let start = 0;
  let lineBreak = false;
  for (let at = 0, length = body.length; at < length; at++) {
    const byte = body[at];
    if (byte === QUOTE) {
      // Skip the string: RFC 8259 section 7 escapes every quote and line break inside it.
      for (at++; at < length && body[at] !== QUOTE; at++) if (body[at] === BACKSLASH) at++;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (depth === 1) {
        start = at;
        lineBreak = false;
      }
      depth++;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
      if (depth === 1) spans.push(lineBreak ? -1 : start, lineBreak ? -1 : at + 1);
    } else if (byte === LINE_FEED || byte === CARRIAGE_RETURN) {
      lineBreak = true;
    }
  }
  return Int32Array.from(spans);
}
