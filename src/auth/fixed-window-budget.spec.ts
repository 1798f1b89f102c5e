import { describe, expect, it } from '@jest/globals';
import { FixedWindowBudget } from './fixed-window-budget.js';

describe('FixedWindowBudget', () => {
  it('allows `limit` requests per key and window, then says how long to wait', () => {
    const sut = new FixedWindowBudget(2, 60_000);
    expect([sut.take('a', 0), sut.take('a', 1000), sut.take('a', 2000)]).toEqual([0, 0, 58]);
    expect(sut.take('b', 2000)).toBe(0);
  });

  it('opens a fresh window once the previous one has ended', () => {
    const sut = new FixedWindowBudget(1, 60_000);
    sut.take('a', 0);
    expect(sut.take('a', 59_999)).toBe(1);
    expect(sut.take('a', 60_000)).toBe(0);
  });
});
