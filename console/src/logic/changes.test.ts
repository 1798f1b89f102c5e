import { describe, expect, it } from 'vitest';
import {
  describeFieldChange,
  fieldChanges,
  fieldName,
  filterChanges,
  groupByType,
  shortValue,
  toRows,
  type Change,
} from './changes';

function change(resourceType: string, severity: Change['severity'], name: string): Change {
  return {
    resourceType,
    action: 'modified',
    resource: { id: `id-${name}`, name },
    severity,
    rule: 'r',
    changedBy: null,
    changedAt: null,
    attribution: 'no_record',
  };
}

describe('groupByType', () => {
  it('orders groups by their worst severity, then type, and counts each severity', () => {
    const groups = groupByType([
      change('user', 'low', 'b'),
      change('group', 'high', 'x'),
      change('user', 'low', 'a'),
      change('app', 'high', 'z'),
      change('policy', 'critical', 'p'),
    ]);
    expect(groups.map((g) => g.type)).toEqual(['policy', 'app', 'group', 'user']);
    expect(groups[3].bySeverity).toEqual({ critical: 0, high: 0, medium: 0, low: 2, info: 0 });
    expect(groups[3].changes.map((c) => c.resource.name)).toEqual(['a', 'b']);
    expect(groups[0].worst).toBe('critical');
  });

  it('sorts 10,000 changes into rows, a heading before each group', () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      change(`type_${i % 7}`, (['critical', 'high', 'medium', 'low', 'info'] as const)[i % 5], `n${i}`),
    );
    const rows = toRows(groupByType(many));
    expect(rows).toHaveLength(10_007);
    expect(rows.filter((row) => row.kind === 'group')).toHaveLength(7);
    expect(rows[0].kind).toBe('group');
  });
});

describe('filterChanges', () => {
  const all = [change('user', 'low', 'a'), change('group', 'high', 'g'), change('group', 'info', 'h')];
  it('keeps every change when nothing is chosen', () => {
    expect(filterChanges(all, { severities: new Set(), types: new Set() })).toHaveLength(3);
  });
  it('narrows by severity and type together', () => {
    const kept = filterChanges(all, { severities: new Set(['high', 'low']), types: new Set(['group']) });
    expect(kept.map((c) => c.resource.name)).toEqual(['g']);
  });
});

describe('fieldName', () => {
  it('reads RFC 6901 escapes', () => {
    expect(fieldName('/profile/first~1name/a~0b')).toBe('profile.first/name.a~b');
    expect(fieldName('')).toBe('(whole object)');
  });
});

describe('shortValue', () => {
  it('shows strings bare, other values as JSON, long ones cut', () => {
    expect(shortValue('Sales')).toBe('Sales');
    expect(shortValue({ a: 1 })).toBe('{"a":1}');
    expect(shortValue('x'.repeat(10), 5)).toBe('xxxx…');
    expect(shortValue(undefined)).toBe('—');
  });
});

describe('fieldChanges', () => {
  it('reads each test operation as the before of the operation after it', () => {
    const fields = fieldChanges([
      { op: 'test', path: '/profile/name', value: 'Sales' },
      { op: 'replace', path: '/profile/name', value: 'Finance' },
      { op: 'add', path: '/profile/owner', value: 'ann' },
      { op: 'test', path: '/profile/phone', value: '555' },
      { op: 'remove', path: '/profile/phone' },
    ]);
    expect(fields.map(describeFieldChange)).toEqual([
      'profile.name: Sales → Finance',
      'profile.owner: (none) → ann',
      'profile.phone: 555 → (removed)',
    ]);
    expect(fields.map((field) => field.path)).toEqual(['/profile/name', '/profile/owner', '/profile/phone']);
  });

  it('shows an unknown before as an ellipsis when no test operation precedes', () => {
    expect(describeFieldChange(fieldChanges([{ op: 'replace', path: '/a', value: 1 }])[0])).toBe('a: … → 1');
  });
});
