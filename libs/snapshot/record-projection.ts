import type { ResourceRecord } from '@libs/records/resource-record.js';

import { SnapshotIntegrityError } from './snapshot-errors.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;
const CARRIAGE_RETURN = 0x0d;

/**
 * Members of an object to keep, each with the UTF-8 bytes of its JSON key (`"scope"`), so a
 * member is recognised by comparing bytes without decoding its key; a member may keep only some
 * of its own members in turn (`profile.login`).
 */
class MemberSet {
  readonly fields: readonly string[];
  readonly keys: readonly Buffer[];
  /** per field: the members it keeps, or undefined to keep it whole */
  readonly children: ReadonlyArray<MemberSet | undefined>;

  /** @param paths dotted member paths (`status`, `profile.login`); a path and one below it keep the whole */
  constructor(paths: readonly string[]) {
    const below = new Map<string, string[] | undefined>();
    for (const path of paths) {
      const dot = path.indexOf('.');
      const [field, rest] = dot === -1 ? [path, undefined] : [path.slice(0, dot), path.slice(dot + 1)];
      const known = below.get(field);
      if (rest === undefined || (below.has(field) && known === undefined)) below.set(field, undefined);
      else below.set(field, [...(known ?? []), rest]);
    }
    this.fields = [...below.keys()];
    this.keys = this.fields.map((field) => Buffer.from(JSON.stringify(field), 'utf8'));
    this.children = this.fields.map((field) => {
      const rest = below.get(field);
      return rest === undefined ? undefined : new MemberSet(rest);
    });
  }
}

/**
 * The members of records' `data` to keep, by dotted path (`scope`, `profile.login`; a member
 * whose name holds a dot cannot be named), and the start every line of the part has.
 */
export class DataProjection {
  readonly members: MemberSet;
  /** `{"type":"<type>","id":`, the start of every line of the part */
  readonly head: Buffer;

  constructor(type: string, paths: readonly string[]) {
    this.members = new MemberSet(paths);
    this.head = Buffer.from(`{"type":${JSON.stringify(type)},"id":`, 'utf8');
  }
}

const NAME_MEMBER = Buffer.from(',"name":', 'utf8');
const NULL = Buffer.from('null', 'utf8');
const TRUE = Buffer.from('true', 'utf8');
const FALSE = Buffer.from('false', 'utf8');
const DATA_MEMBER = Buffer.from(',"data":', 'utf8');

/**
 * The record on one snapshot line (`text` from `start` to `end`, without its newline) with only
 * the projection's members of `data` (a member named by a longer path, such as `profile.login`,
 * holds only that part of it when it is an object); the others are skipped unparsed, and each
 * object's scan stops once its wanted members are found. A line holds `{"type":..,"id":..,"name":..,"data":{..}}`
 * in that order (SnapshotWriter's `recordLine`); `data` is the provider's compact JSON text, so only
 * the JSON grammar's insignificant whitespace (RFC 8259 section 2) may sit between its tokens.
 * This is what lets a compliance check read 900,000 app assignments for their `scope` without
 * materialising each assignment's profile and links.
 * @throws SnapshotIntegrityError when the line is not such a record of `type`
 */
export function projectRecord(
  text: Buffer,
  start: number,
  end: number,
  type: string,
  projection: DataProjection,
): ResourceRecord {
  const scan = new LineScanner(text, start, end, type);
  scan.expect(projection.head);
  const id = scan.value();
  scan.expect(NAME_MEMBER);
  const name = scan.value();
  scan.expect(DATA_MEMBER);
  if (typeof id !== 'string' || (name !== null && typeof name !== 'string')) scan.fail();
  return { type, id, name, data: scan.members(projection.members) } as ResourceRecord;
}

/** A cursor over one line's bytes that skips JSON values by their bounds alone. */
class LineScanner {
  constructor(
    private readonly text: Buffer,
    private at: number,
    private readonly end: number,
    private readonly type: string,
  ) {}

  expect(bytes: Buffer): void {
    if (!this.matches(this.at, bytes)) this.fail();
    this.at += bytes.length;
  }

  /**
   * Parses the value at the cursor (a small one: an id, a name) and moves past it. A string
   * without escapes is decoded as is, which is what JSON.parse would give.
   */
  value(): unknown {
    const from = this.at;
    this.at = this.valueEnd(from);
    return this.decode(from, this.at);
  }

  /**
   * The wanted members of the object at the cursor, parsed (a member that keeps only some of its
   * own, from an object, is scanned the same way); the cursor is then left anywhere.
   */
  members(wanted: MemberSet): Record<string, unknown> {
    const data: Record<string, unknown> = {};
    const { text } = this;
    let left = wanted.keys.length;
    this.space();
    if (text[this.at] !== OPEN_BRACE) this.fail();
    this.at += 1;
    this.space();
    if (text[this.at] === CLOSE_BRACE) return data;
    while (left > 0) {
      this.space();
      const keyStart = this.at;
      if (text[keyStart] !== QUOTE) this.fail();
      const keyEnd = this.stringEnd(keyStart);
      this.at = keyEnd;
      this.space();
      if (text[this.at] !== COLON) this.fail();
      this.at += 1;
      this.space();
      const valueStart = this.at;
      const index = this.wantedIndex(wanted, keyStart, keyEnd);
      const child = index === -1 ? undefined : wanted.children[index];
      if (child !== undefined && text[valueStart] === OPEN_BRACE) {
        data[wanted.fields[index]] = this.members(child);
        left -= 1;
        // The last wanted member: the object's end need not be found (its value scanned twice).
        if (left === 0) break;
        this.at = this.valueEnd(valueStart);
      } else {
        this.at = this.valueEnd(valueStart);
        if (index !== -1) {
          data[wanted.fields[index]] = this.decode(valueStart, this.at);
          left -= 1;
        }
      }
      this.space();
      if (text[this.at] === CLOSE_BRACE) break;
      if (text[this.at] !== COMMA) this.fail();
      this.at += 1;
    }
    return data;
  }

  fail(): never {
    throw new SnapshotIntegrityError(`part "${this.type}": a line is not a record of that type`);
  }

  /** The index of the wanted field whose key spans `keyStart..keyEnd` (escaped keys decoded), or -1. */
  private wantedIndex(wanted: MemberSet, keyStart: number, keyEnd: number): number {
    if (this.escaped(keyStart, keyEnd)) {
      const key = this.parse(keyStart, keyEnd);
      return wanted.fields.findIndex((field) => field === key);
    }
    const length = keyEnd - keyStart;
    for (let i = 0; i < wanted.keys.length; i += 1) {
      const key = wanted.keys[i];
      if (key.length === length && this.matches(keyStart, key)) return i;
    }
    return -1;
  }

  /** True when the line holds `bytes` at `at` (a byte loop: cheaper than a native call for a few bytes). */
  private matches(at: number, bytes: Buffer): boolean {
    if (at + bytes.length > this.end) return false;
    for (let i = 0; i < bytes.length; i += 1) if (this.text[at + i] !== bytes[i]) return false;
    return true;
  }

  private escaped(from: number, to: number): boolean {
    for (let i = from; i < to; i += 1) if (this.text[i] === BACKSLASH) return true;
    return false;
  }

  /**
   * The JSON value from `from` to `to`: a string without escapes is taken as is, the literals
   * `null`, `true` and `false` compared byte by byte, the rest parsed.
   */
  private decode(from: number, to: number): unknown {
    if (this.text[from] === QUOTE && !this.escaped(from, to))
      return this.text.toString('utf8', from + 1, to - 1);
    const length = to - from;
    if (length === NULL.length && this.matches(from, NULL)) return null;
    if (length === TRUE.length && this.matches(from, TRUE)) return true;
    if (length === FALSE.length && this.matches(from, FALSE)) return false;
    return this.parse(from, to);
  }

  private parse(from: number, to: number): unknown {
    try {
      return JSON.parse(this.text.toString('utf8', from, to)) as unknown;
    } catch {
      return this.fail();
    }
  }

  private space(): void {
    const { text } = this;
    while (text[this.at] === SPACE || text[this.at] === TAB || text[this.at] === CARRIAGE_RETURN)
      this.at += 1;
  }

  /**
   * Index just past the JSON string whose opening quote is at `from`. A byte loop (a backslash
   * skips the byte it escapes, RFC 8259 section 7): the strings of a record are short, and a
   * native `indexOf` call per string cost more than the scan itself.
   */
  private stringEnd(from: number): number {
    const { text, end } = this;
    for (let at = from + 1; at < end; at += 1) {
      const byte = text[at];
      if (byte === QUOTE) return at + 1;
      if (byte === BACKSLASH) at += 1;
    }
    return this.fail();
  }

  /** Index just past the JSON value starting at `from`, found by its brackets and quotes only. */
  private valueEnd(from: number): number {
    const { text, end } = this;
    const first = text[from];
    if (first === QUOTE) return this.stringEnd(from);
    if (first === OPEN_BRACE || first === OPEN_BRACKET) {
      let depth = 0;
      for (let i = from; i < end; i += 1) {
        const byte = text[i];
        if (byte === QUOTE) i = this.stringEnd(i) - 1;
        else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth += 1;
        else if ((byte === CLOSE_BRACE || byte === CLOSE_BRACKET) && --depth === 0) return i + 1;
      }
      return this.fail();
    }
    let i = from;
    while (i < end && text[i] !== COMMA && text[i] !== CLOSE_BRACE && text[i] !== CLOSE_BRACKET) i += 1;
    if (i === from) this.fail();
    return i;
  }
}
