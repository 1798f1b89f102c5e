import { describe, expect, it } from '@jest/globals';
import { isStorableText, unstorableTextPath as sut } from './storable-text.js';

describe('isStorableText', () => {
  it('refuses NUL and unpaired surrogates, and accepts paired ones', () => {
    expect(['a\u0000b', 'a\ud800b', '\udc00', 'a\ud83d'].map(isStorableText)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(['', 'plain', '😀', 'x\ud83d\ude00y', '\u0001\u007f'].map(isStorableText)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});

describe('unstorableTextPath', () => {
  it('names the first bad string as the validation pipe names fields', () => {
    expect(sut({ include: ['user', 'gr\u0000oup'] })).toBe('include.1');
    expect(sut({ a: { b: 'x\ud800' } })).toBe('a.b');
    expect(sut('top\u0000')).toBe('');
  });

  it('names a bad key with its bad characters replaced', () => {
    expect(sut({ outer: { 'k\u0000y': 1 } })).toBe('outer.k\ufffdy');
  });

  it('finds nothing in storable values of every JSON type', () => {
    expect(sut({ s: 'ok', n: 1, b: true, z: null, list: [1, 'two', { three: [] }] })).toBeUndefined();
    expect(sut(undefined)).toBeUndefined();
  });

  it('walks a value deeper than the call stack without overflowing it', () => {
    let deep: unknown = 'bottom\u0000';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(sut(deep)).toMatch(/^0(\.0)+$/);
  });
});
