import { describe, expect, it } from '@jest/globals';

import { compileFilter, FilterSyntaxError } from './filter-expression.js';

const user = {
  status: 'ACTIVE',
  lastUpdated: '2025-03-13T23:38:01.000Z',
  profile: { login: 'Ada.Lovelace@example.com', tags: ['a', 'b'] },
  count: 3,
};

describe('compileFilter', () => {
  it.each([
    ['lastUpdated gt "2025-01-01T00:00:00.000Z"', true],
    ['lastUpdated gt "2025-03-13T23:38:01Z"', false],
    ['lastUpdated ge "2025-03-13T23:38:01Z"', true],
    ['status eq "active"', true],
    ['profile.login sw "ada."', true],
    ['profile.login co "LOVE"', true],
    ['profile.tags eq "b"', true],
    ['profile.missing pr', false],
    ['count lt 4', true],
    ['status eq "STAGED" or (lastUpdated lt "2026-01-01T00:00:00.000Z" and profile.login pr)', true],
    ['status eq "ACTIVE" AND status eq "STAGED"', false],
  ])('%s -> %s', (expression, expected) => {
    expect(compileFilter(expression)(user)).toBe(expected);
  });

  it.each(['status eq', 'status ne "A"', '(status eq "A"', 'status eq ACTIVE', 'status eq "A" xor x pr'])(
    'refuses %s',
    (expression) => {
      expect(() => compileFilter(expression)).toThrow(FilterSyntaxError);
    },
  );
});
