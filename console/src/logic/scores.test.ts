import { describe, expect, it } from 'vitest';
import { driftBySeverity, isSeverity } from './scores';

describe('driftBySeverity', () => {
  it('lists the severities with changes, worst first, unknown ones last', () => {
    expect(driftBySeverity({ low: 3, critical: 1, high: 0, odd: 2 })).toEqual([
      { severity: 'critical', count: 1 },
      { severity: 'low', count: 3 },
      { severity: 'odd', count: 2 },
    ]);
  });
  it('is empty when nothing changed', () => expect(driftBySeverity({})).toEqual([]));
});

describe('isSeverity', () => {
  it('knows the five severities only', () => {
    expect(isSeverity('critical')).toBe(true);
    expect(isSeverity('odd')).toBe(false);
  });
});
