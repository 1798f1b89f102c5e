import { describe, expect, it } from '@jest/globals';
import { Permission, roleHasPermission, type Role } from './permission.js';

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
];
const ALL: Role[] = ['super_admin', 'admin', 'operator', 'auditor', 'viewer'];

describe('roleHasPermission', () => {
  it.each(TABLE)('%s is held exactly by %j', (permission, holders) => {
    for (const role of ALL)
      expect([role, roleHasPermission(role, permission)]).toEqual([role, holders.includes(role)]);
  });
});
