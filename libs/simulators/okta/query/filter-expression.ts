import type { Json } from '@libs/simulators/okta/store/entry.js';

/** A compiled `filter`/`search` expression: true when the object matches. */
export type Predicate = (object: Json) => boolean;

/** Thrown for an expression outside the supported grammar; the caller answers 400 E0000031. */
export class FilterSyntaxError extends Error {}

/**
 * What an endpoint's `filter` accepts, when narrower than the grammar (listUsers: a few
 * properties, `eq` only except on `lastUpdated`): the properties, and the operators of each.
 */
export interface FilterRules {
  properties: readonly string[];
  operators(property: string): readonly string[];
}

type Token = { kind: 'word' | 'string' | 'open' | 'close'; text: string };

const COMPARATORS = new Set(['eq', 'gt', 'ge', 'lt', 'le', 'sw', 'co']);

/**
 * Compiles an Okta filter or search expression (developer.okta.com/docs/api/#filter), e.g.
 * `lastUpdated gt "2025-01-01T00:00:00.000Z" and (status eq "ACTIVE" or status eq "STAGED")`.
 *
 * Grammar: `or` of `and` of comparisons, with parentheses; a comparison is
 * `path op value` (op: eq, gt, ge, lt, le, sw, co) or `path pr`. Paths are dotted
 * (`profile.login`); values are double-quoted strings, numbers, `true`, `false` or `null`.
 * Operators are case-insensitive, as Okta's are; string comparisons for eq/sw/co are
 * case-insensitive (Okta search semantics); gt/ge/lt/le compare ISO timestamps as text.
 * When the property is an array, the comparison matches if any element does (SCIM rule).
 * With `rules`, properties and operators outside them are refused too.
 * Throws {@link FilterSyntaxError}.
 */
export function compileFilter(expression: string, rules?: FilterRules): Predicate {
  const parser = new Parser(tokenize(expression), rules);
  const predicate = parser.parseOr();
  parser.expectEnd();
  return predicate;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: c === '(' ? 'open' : 'close', text: c });
      i++;
    } else if (c === '"') {
      let value = '';
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        value += text[i++];
      }
      if (i >= text.length) throw new FilterSyntaxError('Unterminated string');
      i++;
      tokens.push({ kind: 'string', text: value });
    } else {
      const start = i;
      while (i < text.length && !/[\s()"]/.test(text[i])) i++;
      tokens.push({ kind: 'word', text: text.slice(start, i) });
    }
  }
  return tokens;
}

class Parser {
  private position = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly rules?: FilterRules,
  ) {}

  parseOr(): Predicate {
    const terms = [this.parseAnd()];
    while (this.peekKeyword('or')) {
      this.position++;
      terms.push(this.parseAnd());
    }
    return terms.length === 1 ? terms[0] : (o) => terms.some((t) => t(o));
  }

  expectEnd(): void {
    if (this.position < this.tokens.length)
      throw new FilterSyntaxError(`Unexpected '${this.tokens[this.position].text}'`);
  }

  private parseAnd(): Predicate {
    const terms = [this.parsePrimary()];
    while (this.peekKeyword('and')) {
      this.position++;
      terms.push(this.parsePrimary());
    }
    return terms.length === 1 ? terms[0] : (o) => terms.every((t) => t(o));
  }

  private parsePrimary(): Predicate {
    const token = this.next();
    if (token.kind === 'open') {
      const inner = this.parseOr();
      if (this.next().kind !== 'close') throw new FilterSyntaxError('Missing )');
      return inner;
    }
    if (token.kind !== 'word') throw new FilterSyntaxError(`Expected a property, got '${token.text}'`);
    const path = token.text.split('.');
    const op = this.next();
    const operator = op.text.toLowerCase();
    if (this.rules && !this.rules.properties.includes(token.text))
      throw new FilterSyntaxError(`Filtering on '${token.text}' is not supported`);
    if (this.rules && !this.rules.operators(token.text).includes(operator))
      throw new FilterSyntaxError(`Operator '${op.text}' is not supported for '${token.text}'`);
    if (op.kind === 'word' && operator === 'pr') return (o) => present(read(o, path));
    if (op.kind !== 'word' || !COMPARATORS.has(operator))
      throw new FilterSyntaxError(`Unsupported operator '${op.text}'`);
    const compare = comparator(operator, this.parseValue());
    return (o) => {
      const value = read(o, path);
      return Array.isArray(value) ? value.some(compare) : compare(value);
    };
  }

  private parseValue(): unknown {
    const token = this.next();
    if (token.kind === 'string') return token.text;
    if (token.kind !== 'word') throw new FilterSyntaxError(`Expected a value, got '${token.text}'`);
    if (token.text === 'true' || token.text === 'false') return token.text === 'true';
    if (token.text === 'null') return null;
    const number = Number(token.text);
    if (Number.isNaN(number)) throw new FilterSyntaxError(`Values must be quoted: ${token.text}`);
    return number;
  }

  private peekKeyword(keyword: string): boolean {
    const token = this.tokens[this.position];
    return token !== undefined && token.kind === 'word' && token.text.toLowerCase() === keyword;
  }

  private next(): Token {
    const token = this.tokens[this.position++];
    if (!token) throw new FilterSyntaxError('Unexpected end of expression');
    return token;
  }
}

function read(object: Json, path: string[]): unknown {
  let value: unknown = object;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Json)[key];
  }
  return value;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

function comparator(operator: string, expected: unknown): (actual: unknown) => boolean {
  const text = typeof expected === 'string' ? expected.toLowerCase() : undefined;
  switch (operator) {
    case 'eq':
      return (a) => (text !== undefined && typeof a === 'string' ? a.toLowerCase() === text : a === expected);
    case 'sw':
      return (a) => text !== undefined && typeof a === 'string' && a.toLowerCase().startsWith(text);
    case 'co':
      return (a) => text !== undefined && typeof a === 'string' && a.toLowerCase().includes(text);
    default:
      return ordered(operator, expected);
  }
}

function ordered(operator: string, expected: unknown): (actual: unknown) => boolean {
  const holds = {
    gt: (c: number) => c > 0,
    ge: (c: number) => c >= 0,
    lt: (c: number) => c < 0,
    le: (c: number) => c <= 0,
  }[operator as 'gt' | 'ge' | 'lt' | 'le'];
  // Timestamps are compared as instants, so "...T00:00:00Z" and "...T00:00:00.000Z" agree.
  const expectedInstant =
    typeof expected === 'string' && ISO_DATE.test(expected) ? Date.parse(expected) : NaN;
  return (a) => {
    if (typeof a === 'number' && typeof expected === 'number') return holds(a - expected);
    if (typeof a !== 'string' || typeof expected !== 'string') return false;
    if (!Number.isNaN(expectedInstant) && ISO_DATE.test(a)) return holds(Date.parse(a) - expectedInstant);
    return holds(a < expected ? -1 : a > expected ? 1 : 0);
  };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T/;
