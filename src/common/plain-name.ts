import { Transform } from 'class-transformer';

/** Line breaks and other vertical whitespace: become one space, so words stay apart. */
const LINE_BREAKS = /[\n\v\f\r\u0085\u2028\u2029\t]+/g;
/**
 * Every other control character: C0 and C1 controls and DEL (Unicode general category Cc), and
 * the bidirectional embedding, override and isolate controls (Unicode TR #9), which reorder how a
 * name reads (CVE-2021-42574, "Trojan Source").
 */
const CONTROLS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;

/**
 * A name as one line of plain text: line breaks and tabs become one space, other control
 * characters are dropped, and the ends are trimmed. Names reach e-mail text, report PDFs, CSV and
 * logs, where a CR/LF would start a line that looks like a header or a new record.
 */
export function plainName(value: string): string {
  return value.replace(LINE_BREAKS, ' ').replace(CONTROLS, '').trim();
}

/**
 * Property decorator for every name field of a request body (class-transformer, run by the
 * validation pipe before the validators): applies plainName to a string, leaves other values to
 * the validators.
 */
export function PlainName(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? plainName(value) : value));
}
