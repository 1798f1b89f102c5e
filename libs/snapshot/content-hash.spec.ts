import { createHash } from 'node:crypto';

import { describe, expect, it } from '@jest/globals';

import { canonicalJson } from './canonical-json.js';
import { OKTA_VOLATILE_FIELDS } from '@libs/providers/okta/okta-volatile-fields.js';
import { contentHash } from './content-hash.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and leaves out whitespace, keeping array order', () => {
    const sut = canonicalJson({ b: [3, { z: 1, a: null }], a: { d: true, c: 'x' } });

    expect(sut).toBe('{"a":{"c":"x","d":true},"b":[3,{"a":null,"z":1}]}');
  });

  it('writes numbers and strings as RFC 8785 does (ECMAScript forms)', () => {
    expect(canonicalJson([1.0, -0, 1e21, 0.000001, 1e-7, 333333333.3333333])).toBe(
      '[1,0,1e+21,0.000001,1e-7,333333333.3333333]',
    );
    expect(canonicalJson({ '€': 'é\n"\u0001', '\u00e9': 1, e: 2 })).toBe(
      '{"e":2,"é":1,"€":"é\\n\\"\\u0001"}',
    );
  });

  it('leaves out undefined members and writes undefined array items as null, as JSON does', () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
  });

  it('sorts keys that look like integers by code units too, at any depth', () => {
    // JavaScript enumerates "9" before "10" and both before "$": insertion order cannot hold these.
    const sut = canonicalJson({ b: 1, '10': 2, '9': 3, $: 4, a: [{ '2': 0, '1': 0, x: 0 }] });

    expect(sut).toBe('{"$":4,"10":2,"9":3,"a":[{"1":0,"2":0,"x":0}],"b":1}');
  });

  it('writes a __proto__ member as the member JSON.parse made of it', () => {
    const sut = canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":1}}'));

    expect(sut).toBe('{"__proto__":{"x":1},"b":1}');
  });

  it('sorts objects of many keys (past insertion sort) as of few', () => {
    const keys = Array.from({ length: 100 }, (_, n) => `k${(n * 37) % 100}`);
    const sut = canonicalJson(Object.fromEntries(keys.map((key) => [key, key])));

    const sorted = [...keys].sort().map((key) => `"${key}":"${key}"`);
    expect(sut).toBe(`{${sorted.join(',')}}`);
  });

  it('matches a plain reference writer on a thousand generated values', () => {
    const random = seeded(42);
    for (let n = 0; n < 1000; n += 1) {
      const value = generated(random, 0);
      const omit = new Set(['k', 'lastLogin']);

      expect(canonicalJson(value, omit)).toBe(reference(value, omit));
    }
  });

  it.each([NaN, Infinity, 10n, new Date(0), new Map(), () => 1])('refuses %p', (value) => {
    expect(() => canonicalJson({ value })).toThrow(TypeError);
  });
});

/** Canonical JSON written the obvious way, to check the fast one against. */
function reference(value: unknown, omit: ReadonlySet<string>): string {
  if (Array.isArray(value)) return `[${value.map((item) => reference(item ?? null, omit)).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const members = Object.keys(value)
    .sort()
    .filter((key) => !omit.has(key) && (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${reference((value as Record<string, unknown>)[key], omit)}`);
  return `{${members.join(',')}}`;
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** A JSON value with keys of every kind: integer-like, symbols, accents, emoji, omitted names. */
function generated(random: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const kind =
    depth > 3
      ? pick(['string', 'number', 'literal'])
      : pick(['object', 'object', 'array', 'string', 'number', 'literal']);
  switch (kind) {
    case 'object': {
      const keys = [
        'id',
        'b',
        'a',
        '0',
        '7',
        '10',
        '$x',
        '-',
        'é',
        'Z',
        '😀',
        'k',
        'lastLogin',
        'profile',
        ' ',
      ];
      const object: Record<string, unknown> = {};
      for (let n = Math.floor(random() * 8); n > 0; n -= 1) object[pick(keys)] = generated(random, depth + 1);
      if (random() < 0.1) object.gone = undefined;
      return object;
    }
    case 'array':
      return Array.from({ length: Math.floor(random() * 4) }, () => generated(random, depth + 1));
    case 'string':
      return pick(['', 'a"b', 'line\nbreak', '\u0001', 'é€😀', '\ud800']);
    case 'number':
      return pick([0, -0, 1.5, -3, 1e21, 1e-7, 333333333.3333333]);
    default:
      return pick([true, false, null]);
  }
}

describe('contentHash', () => {
  const user = {
    id: '00u1',
    status: 'ACTIVE',
    created: '2024-01-01T00:00:00.000Z',
    lastLogin: '2026-11-01T10:00:00.000Z',
    lastUpdated: '2026-11-01T10:00:00.000Z',
    profile: { login: 'alice@example.com', lastUpdated: 'x' },
    _links: { self: { href: 'https://acme.okta.com/api/v1/users/00u1' } },
    credentials: [{ provider: { type: 'OKTA' }, passwordChanged: '2026-10-01' }],
  };
  const sut = contentHash(user, OKTA_VOLATILE_FIELDS);

  it('is SHA-256 hex of the canonical JSON without volatile fields', () => {
    const expected = createHash('sha256')
      .update(
        '{"created":"2024-01-01T00:00:00.000Z","credentials":[{"provider":{"type":"OKTA"}}],' +
          '"id":"00u1","profile":{"login":"alice@example.com"},"status":"ACTIVE"}',
      )
      .digest('hex');

    expect(sut).toBe(expected);
  });

  it('does not change when volatile fields change, at any depth, or when keys are reordered', () => {
    const changed = {
      _links: { self: { href: 'https://acme-new.okta.com/api/v1/users/00u1' } },
      _embedded: { stats: { usersCount: 5 } },
      credentials: [{ passwordChanged: '2026-11-20', provider: { type: 'OKTA' } }],
      profile: { lastUpdated: 'y', login: 'alice@example.com' },
      lastUpdated: '2026-11-22T00:00:00.000Z',
      lastLogin: null,
      activated: '2026-11-22T00:00:00.000Z',
      statusChanged: '2026-11-22T00:00:00.000Z',
      transitioningToStatus: 'ACTIVE',
      lastMembershipUpdated: '2026-11-22T00:00:00.000Z',
      created: '2024-01-01T00:00:00.000Z',
      status: 'ACTIVE',
      id: '00u1',
    };

    expect(contentHash(changed, OKTA_VOLATILE_FIELDS)).toBe(sut);
  });

  it.each([
    ['a status', { ...user, status: 'SUSPENDED' }],
    ['a profile attribute', { ...user, profile: { ...user.profile, login: 'alice2@example.com' } }],
    ['a nested value in an array', { ...user, credentials: [{ provider: { type: 'FEDERATION' } }] }],
    ['an added field', { ...user, type: { id: 'oty1' } }],
  ])('changes when %s changes', (_what, data) => {
    expect(contentHash(data, OKTA_VOLATILE_FIELDS)).not.toBe(sut);
  });

  it('uses the field list it is given', () => {
    expect(contentHash(user, [])).not.toBe(sut);
    expect(contentHash(user, new Set(OKTA_VOLATILE_FIELDS))).toBe(sut);
  });
});
