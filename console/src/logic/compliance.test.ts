import { describe, expect, it } from 'vitest';
import {
  complianceRuns,
  countByStatus,
  formatEvidenceValue,
  orderFindings,
  type AuditEvent,
  type Finding,
} from './compliance';

const finding = (
  control: string,
  status: Finding['status'],
  severity: Finding['severity'],
  check = 'c',
): Finding => ({
  control,
  status,
  severity,
  check,
  title: control,
  requirement: '',
  remediation: '',
  evidence: {
    backupId: 'b',
    collectedAt: '2026-01-01T00:00:00Z',
    resourceType: 'policy',
    resources: [],
    total: 0,
    pointers: [],
    observed: null,
    expected: null,
  },
});

describe('orderFindings', () => {
  it('puts failed controls first, then warnings and passes, the worst severity first, controls numerically', () => {
    const ordered = orderFindings([
      finding('8.3.10', 'pass', 'high'),
      finding('8.3.9', 'manual', 'critical'),
      finding('8.3.10', 'fail', 'medium'),
      finding('8.3.6', 'fail', 'medium'),
      finding('8.4.1', 'fail', 'critical'),
      finding('8.2.8', 'warning', 'low'),
      finding('1.1', 'not_applicable', 'critical'),
    ]);
    expect(ordered.map((f) => `${f.status} ${f.control}`)).toEqual([
      'fail 8.4.1',
      'fail 8.3.6',
      'fail 8.3.10',
      'warning 8.2.8',
      'pass 8.3.10',
      'manual 8.3.9',
      'not_applicable 1.1',
    ]);
  });
});

describe('countByStatus', () => {
  it('counts every status, 0 where none', () => {
    expect(
      countByStatus([finding('a', 'fail', 'high'), finding('b', 'fail', 'low'), finding('c', 'pass', 'low')]),
    ).toEqual({
      fail: 2,
      warning: 0,
      pass: 1,
      manual: 0,
      not_applicable: 0,
    });
  });
});

describe('formatEvidenceValue', () => {
  it('shows strings as they are, none as a dash, the rest as JSON', () => {
    expect(formatEvidenceValue('at least 12')).toBe('at least 12');
    expect(formatEvidenceValue(null)).toBe('—');
    expect(formatEvidenceValue(8)).toBe('8');
    expect(formatEvidenceValue({ minLength: 8 })).toBe('{"minLength":8}');
  });
});

describe('complianceRuns', () => {
  const event = (overrides: Partial<AuditEvent>): AuditEvent => ({
    id: 'e',
    occurred_at: '2026-01-01T00:00:00Z',
    actor: { type: 'user', id: 'u', email: 'a@example.com' },
    action: 'compliance.checked',
    target: { type: 'backup', id: 'b1' },
    outcome: 'success',
    ip: null,
    request_id: null,
    details: { connection_id: 'c1', framework: 'pci_dss', served_from: 'computed', score: 71 },
    ...overrides,
  });

  it('reads a check answered in the request, and one run as a job, and skips other actions', () => {
    const runs = complianceRuns([
      event({}),
      event({
        id: 'j',
        actor: { type: 'system', id: null },
        target: { type: 'compliance_check', id: 'k' },
        details: { connection_id: 'c1', backup_id: 'b2', framework: 'soc2', score: 90 },
      }),
      event({ id: 'x', action: 'backup.completed' }),
    ]);
    expect(runs).toEqual([
      {
        id: 'e',
        at: '2026-01-01T00:00:00Z',
        framework: 'pci_dss',
        score: 71,
        backupId: 'b1',
        connectionId: 'c1',
        servedFrom: 'computed',
        by: 'a@example.com',
      },
      {
        id: 'j',
        at: '2026-01-01T00:00:00Z',
        framework: 'soc2',
        score: 90,
        backupId: 'b2',
        connectionId: 'c1',
        servedFrom: null,
        by: null,
      },
    ]);
  });
});
