import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration';

describe('formatDuration', () => {
  it('reads milliseconds, seconds and minutes', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(850.4)).toBe('850 ms');
    expect(formatDuration(12_345)).toBe('12.3 s');
    expect(formatDuration(245_000)).toBe('4 min 05 s');
  });

  it('reads nonsense as zero', () => {
    expect(formatDuration(-5)).toBe('0 ms');
    expect(formatDuration(Number.NaN)).toBe('0 ms');
  });
});
