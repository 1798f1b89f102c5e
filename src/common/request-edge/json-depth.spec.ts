import { describe, expect, it } from '@jest/globals';
import { jsonNestsDeeperThan as sut } from './json-depth.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('jsonNestsDeeperThan', () => {
  it('counts arrays and objects alike, up to the limit inclusive', () => {
    expect(sut(bytes('{"a":[{"b":[]}]}'), 4)).toBe(false);
    expect(sut(bytes('{"a":[{"b":[[]]}]}'), 4)).toBe(true);
    expect(sut(bytes('1'), 0)).toBe(false);
  });

  it('counts depth, not the number of containers', () => {
    expect(sut(bytes(`[${'[],'.repeat(1000)}[]]`), 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(sut(bytes('["[[[[", "\\"[[[[", "\\\\", "{{{{"]'), 1)).toBe(false);
    expect(sut(bytes('["\\\\"[[]]'), 2)).toBe(true);
  });

  it('reads UTF-8 text with multi-byte characters', () => {
    expect(sut(bytes('{"名前":["😀[",{"ü":[]}]}'), 4)).toBe(false);
    expect(sut(bytes('{"名前":["😀[",{"ü":[[]]}]}'), 4)).toBe(true);
  });

  it('stops at the first level past the limit of a very deep body', () => {
    expect(sut(bytes('['.repeat(50_000)), 32)).toBe(true);
  });
});
