import { describe, expect, it } from '@jest/globals';
import { narrowerRole, Permission, roleHasPermission, type Role } from './permission.js';

/** DESIGN section 3, transcribed row by row: y marks the roles that hold the permission. */
const TABLE: Array<[Permission, Role[]]> = [
  [Permission.ViewBackups, ['super_admin', 'admin', 'operator', 'auditor', 'viewer']],
  [Permission.RunBackups, ['super_admin', 'admin', 'operator']],
  [Permission.ManageConnections, ['super_admin', 'admin']],
  [Permission.Restore, ['super_admin', 'admin']],
  [Permission.Compliance, ['super_admin', 'admin', 'auditor']],
  [Permission.Export, ['super_admin', 'admin', 'auditor']],
  [Permission.ViewNotifications, ['super_admin', 'admin', 'operator', 'auditor', 'viewer']],
  [Permission.AccountErasure, ['super_admin']],
  // Beyond DESIGN's table (docs/security.md): members, invitations and clients.
  [Permission.ManageTeam, ['super_admin', 'admin']],
];
const ALL: Role[] = ['super_admin', 'admin', 'operator', 'auditor', 'viewer'];

describe('roleHasPermission', () => {
  it.each(TABLE)('%s is held exactly by %j', (permission, holders) => {
    for (const role of ALL)
      expect([role, roleHasPermission(role, permission)]).toEqual([role, holders.includes(role)]);
  });
});

describe('narrowerRole', () => {
  it.each([
    ['super_admin', 'admin', 'admin'],
    ['admin', 'super_admin', 'admin'],
    ['super_admin', 'super_admin', 'super_admin'],
    ['admin', 'operator', 'operator'],
    ['auditor', 'admin', 'auditor'],
    ['operator', 'auditor', 'viewer'],
    ['auditor', 'operator', 'viewer'],
    ['viewer', 'super_admin', 'viewer'],
  ] as Array<[Role, Role, Role]>)('%s within %s is %s', (a, b, expected) => {
    expect(narrowerRole(a, b)).toBe(expected);
  });

  it('never grants a permission that either role lacks', () => {
    for (const a of ALL)
      for (const b of ALL)
        for (const permission of Object.values(Permission))
          if (roleHasPermission(narrowerRole(a, b), permission))
            expect([
              a,
              b,
              permission,
              roleHasPermission(a, permission) && roleHasPermission(b, permission),
            ]).toEqual([a, b, permission, true]);
  });
});
