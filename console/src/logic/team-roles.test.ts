import { describe, expect, it } from 'vitest';
import { clientRoles, grantableRoles, mayChangeMember, mayHandleRole } from './team-roles';

describe('grantableRoles', () => {
  it('lets the owner grant admin and others only the roles below it', () => {
    expect(grantableRoles('super_admin')).toEqual(['admin', 'operator', 'auditor', 'viewer']);
    expect(grantableRoles('admin')).toEqual(['operator', 'auditor', 'viewer']);
  });
});

describe('clientRoles', () => {
  it('lets only the owner give a client admin or super_admin', () => {
    expect(clientRoles('super_admin')).toEqual(['super_admin', 'admin', 'operator', 'auditor', 'viewer']);
    expect(clientRoles('admin')).toEqual(['operator', 'auditor', 'viewer']);
  });
});

describe('mayChangeMember', () => {
  const owner = { role: 'super_admin' as const, userId: 'o' };
  const admin = { role: 'admin' as const, userId: 'a' };
  it('never changes oneself or the owner', () => {
    expect(mayChangeMember(owner, { role: 'super_admin', user_id: 'o' })).toBe(false);
    expect(mayChangeMember(admin, { role: 'super_admin', user_id: 'o' })).toBe(false);
    expect(mayChangeMember(admin, { role: 'admin', user_id: 'a' })).toBe(false);
  });
  it("changes an admin's membership as the owner only", () => {
    expect(mayChangeMember(owner, { role: 'admin', user_id: 'x' })).toBe(true);
    expect(mayChangeMember(admin, { role: 'admin', user_id: 'x' })).toBe(false);
    expect(mayChangeMember(admin, { role: 'viewer', user_id: 'x' })).toBe(true);
  });
});

describe('mayHandleRole', () => {
  it('keeps admin-level invitations and clients to the owner', () => {
    expect(mayHandleRole('admin', 'admin')).toBe(false);
    expect(mayHandleRole('admin', 'operator')).toBe(true);
    expect(mayHandleRole('super_admin', 'super_admin')).toBe(true);
  });
});
