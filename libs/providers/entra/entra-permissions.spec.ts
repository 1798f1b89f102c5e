import { describe, expect, it } from '@jest/globals';
import { ProviderAuthError } from '@libs/providers/provider-errors.js';

import { assertPermissionsGranted } from './entra-permissions.js';
import { entraBackupPermissions } from './entra-resource-catalog.js';

describe('assertPermissionsGranted', () => {
  const needed = entraBackupPermissions();

  it('accepts the ReadWrite form, Directory.Read.All for directory reads, RoleManagement for PIM schedules', () => {
    const broader = needed
      .filter(
        (p) =>
          ![
            'Application.Read.All',
            'AdministrativeUnit.Read.All',
            'DelegatedPermissionGrant.Read.All',
          ].includes(p) && !p.startsWith('Role'),
      )
      .map((p) => (p === 'User.Read.All' ? 'User.ReadWrite.All' : p))
      .concat('RoleManagement.ReadWrite.Directory');
    expect(() => assertPermissionsGranted(needed, broader)).not.toThrow();
  });

  it('names every missing permission, and no broader one stands in for a policy read', () => {
    const granted = needed.filter(
      (p) => p !== 'Policy.Read.PermissionGrant' && p !== 'OrganizationalBranding.Read.All',
    );
    const error = (() => {
      try {
        assertPermissionsGranted(needed, [...granted, 'Directory.ReadWrite.All']);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect((error as Error).message).toMatch(
      /lacks the application permissions OrganizationalBranding\.Read\.All, Policy\.Read\.PermissionGrant/,
    );
  });
});
