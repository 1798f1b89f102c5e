import { describe, expect, it } from 'vitest';
import type { Schemas } from '../api/client';
import { groupUndoChanges, undoActors } from './undo';

const change = (
  action: Schemas['UndoChange']['action'],
  resourceType: string,
  name: string,
  by?: { id: string; displayName: string; alternateId?: string },
  byThisService = false,
): Schemas['UndoChange'] => ({
  action,
  resourceType,
  id: `${resourceType}-${name}`,
  name,
  changedBy: by ? { ...by, type: 'user' } : null,
  changedAt: by ? '2026-12-07T10:00:00Z' : null,
  attribution: by ? 'recorded' : 'no_record',
  byThisService,
});

describe('groupUndoChanges', () => {
  it('groups by action (put back, re-create, delete), sorted by type and name, empty groups left out', () => {
    const groups = groupUndoChanges([
      change('delete', 'app', 'Payroll export'),
      change('put_back', 'policy', 'Default'),
      change('put_back', 'group', 'Zeta'),
      change('put_back', 'group', 'Alpha'),
    ]);
    expect(groups.map((group) => [group.action, group.changes.map((c) => c.name)])).toEqual([
      ['put_back', ['Alpha', 'Zeta', 'Default']],
      ['delete', ['Payroll export']],
    ]);
  });
});

describe('undoActors', () => {
  it('names each actor once by display and sign-in name, leaving out this service and unattributed changes', () => {
    const mallory = { id: '00u1', displayName: 'Mallory Moe', alternateId: 'mallory@acme.example' };
    expect(
      undoActors([
        change('delete', 'app', 'A', mallory),
        change('put_back', 'group', 'B', mallory),
        change('recreate', 'group', 'C', { id: '00u2', displayName: 'Olivia' }),
        change('put_back', 'group', 'D', { id: 'svc', displayName: 'Backup service' }, true),
        change('put_back', 'group', 'E'),
      ]),
    ).toEqual([
      { value: '00u1', label: 'Mallory Moe (mallory@acme.example)' },
      { value: '00u2', label: 'Olivia' },
    ]);
  });
});
