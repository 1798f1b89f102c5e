import { describe, expect, it } from 'vitest';
import { cannotDecide, describeChanges } from './approvals';

describe('describeChanges', () => {
  it('pairs each replace with the value its test names', () => {
    expect(
      describeChanges([
        { op: 'test', path: '/rows/group/create', value: 1 },
        { op: 'replace', path: '/rows/group/create', value: 2 },
      ]),
    ).toEqual(['group: create 1 → 2']);
  });

  it('names prune candidates that appeared or went, with ids holding a slash', () => {
    expect(
      describeChanges([
        { op: 'add', path: '/prune/app:a~11', value: { name: 'Evil' } },
        { op: 'test', path: '/prune/user:u1', value: {} },
        { op: 'remove', path: '/prune/user:u1' },
      ]),
    ).toEqual(['New: prune candidate app:a/1', 'Gone: prune candidate user:u1']);
  });

  it('says nothing for no changes', () => {
    expect(describeChanges([])).toEqual([]);
  });
});

describe('cannotDecide', () => {
  const pending = { status: 'pending', requester: { user_id: 'u1' } };
  const person = { userId: 'u2', canRestore: true };
  it('lets another member with restore decide a pending request', () => {
    expect(cannotDecide(pending, person)).toBeNull();
  });
  it('refuses the requester, roles without restore and decided requests', () => {
    expect(cannotDecide(pending, { ...person, userId: 'u1' })).toBe('own');
    expect(cannotDecide(pending, { ...person, canRestore: false })).toBe('role');
    expect(cannotDecide({ ...pending, status: 'executed' }, person)).toBe('not_pending');
  });
});
