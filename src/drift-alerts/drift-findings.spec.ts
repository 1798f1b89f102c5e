import { describe, expect, it } from '@jest/globals';
import type { ResourceChange } from '@app/diff/snapshot-diff.js';
import { driftFindings } from './drift-findings.js';

const change = (id: string, severity: ResourceChange['severity'], rule: string): ResourceChange => ({
  resourceType: 'policy',
  action: 'modified',
  resource: { id, name: `Policy ${id}` },
  severity,
  rule,
});

describe('driftFindings', () => {
  it('is null when no change is high or critical', () => {
    expect(driftFindings([change('a', 'medium', 'policy-changed'), change('b', 'info', 'other')])).toBeNull();
  });

  it('counts by severity and lists the most severe first, naming each rule', () => {
    const sut = driftFindings([
      change('a', 'high', 'sign-on-rule-weakened'),
      change('b', 'low', 'other'),
      change('c', 'critical', 'password-policy-weakened'),
    ]);
    expect(sut?.by_severity).toEqual({ critical: 1, high: 1, medium: 0, low: 1, info: 0 });
    expect(sut?.top_changes.map((c) => c.rule)).toEqual([
      'password-policy-weakened',
      'sign-on-rule-weakened',
    ]);
    expect(sut?.summary).toBe(
      '1 critical, 1 high: password-policy-weakened (policy Policy c); sign-on-rule-weakened (policy Policy a)',
    );
  });

  it('lists at most five changes', () => {
    const many = Array.from({ length: 9 }, (_, i) => change(String(i), 'high', 'r'));
    expect(driftFindings(many)?.top_changes).toHaveLength(5);
  });
});
