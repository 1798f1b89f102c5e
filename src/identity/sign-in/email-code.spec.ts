import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { codeMatches, generateCode, hashCode } from './email-code.js';

const key = randomBytes(32);

describe('e-mail codes', () => {
  it('are six decimal digits, all of them drawn', () => {
    const codes = Array.from({ length: 2000 }, generateCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes.map((code) => code[0])).size).toBe(10);
    expect(new Set(codes).size).toBeGreaterThan(1990);
  });

  it('are stored as a keyed hash bound to the address', () => {
    const sut = hashCode(key, 'a@example.com', '123456');
    expect(sut).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sut).not.toBe(hashCode(randomBytes(32), 'a@example.com', '123456'));
    expect(sut).not.toBe(hashCode(key, 'b@example.com', '123456'));
  });

  it('match the right code for the right address only', () => {
    const stored = hashCode(key, 'a@example.com', '123456');
    expect(codeMatches(key, 'a@example.com', '123456', stored)).toBe(true);
    expect(codeMatches(key, 'a@example.com', '123457', stored)).toBe(false);
    expect(codeMatches(key, 'b@example.com', '123456', stored)).toBe(false);
    expect(codeMatches(key, 'a@example.com', '123456', stored.slice(0, -2))).toBe(false);
  });
});
