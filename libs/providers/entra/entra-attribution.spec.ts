import { describe, expect, it } from '@jest/globals';
import { attributionFromAudits } from './entra-attribution.js';
import type { GraphObject } from './graph-object.js';

const OWN_APP = '11111111-1111-1111-1111-111111111111';

/** A directory audit record in Graph's shape ("directoryAudit resource type"). */
function audit(fields: Partial<GraphObject> & { targetResources: GraphObject[] }): GraphObject {
  return {
    id: 'Directory_0001',
    category: 'Policy',
    result: 'success',
    activityDisplayName: 'Update conditional access policy',
    activityDateTime: '2026-12-07T10:00:00Z',
    initiatedBy: {
      user: {
        id: 'u-1',
        displayName: 'Mallory',
        userPrincipalName: 'mallory@contoso.com',
        ipAddress: '203.0.113.7',
      },
      app: null,
    },
    ...fields,
  };
}

describe('attributionFromAudits', () => {
  it('names the initiating user with sign-in name and IP, typing a policy target by its activity', () => {
    const [entry] = attributionFromAudits(
      [audit({ targetResources: [{ id: 'ca-1', type: 'Policy', displayName: 'Require MFA' }] })],
      OWN_APP,
    );
    expect(entry).toEqual({
      eventId: 'Directory_0001',
      targetId: 'ca-1',
      targetType: 'Policy',
      resourceType: 'conditional_access_policy',
      changedAt: '2026-12-07T10:00:00Z',
      actor: {
        id: 'u-1',
        displayName: 'Mallory',
        type: 'user',
        alternateId: 'mallory@contoso.com',
        ipAddress: '203.0.113.7',
      },
      eventType: 'Update conditional access policy',
      byThisService: false,
    });
  });

  it('names an initiating app by its service principal, and marks the connection’s own app as this service', () => {
    const entries = attributionFromAudits(
      [
        audit({
          category: 'GroupManagement',
          activityDisplayName: 'Add group',
          initiatedBy: {
            user: null,
            app: { appId: OWN_APP, servicePrincipalId: 'sp-own', displayName: 'idp-backup' },
          },
          targetResources: [{ id: 'g-1', type: 'Group' }],
        }),
        audit({
          id: 'Directory_0002',
          category: 'ApplicationManagement',
          activityDisplayName: 'Add application',
          initiatedBy: {
            user: null,
            app: { appId: 'other', servicePrincipalId: 'sp-2', displayName: 'Script' },
          },
          targetResources: [{ id: 'app-1', type: 'Application' }],
        }),
      ],
      OWN_APP,
    );
    expect(entries.map((e) => [e.targetId, e.resourceType, e.actor, e.byThisService])).toEqual([
      ['g-1', 'group', { id: 'sp-own', displayName: 'idp-backup', type: 'app', alternateId: OWN_APP }, true],
      [
        'app-1',
        'application',
        { id: 'sp-2', displayName: 'Script', type: 'app', alternateId: 'other' },
        false,
      ],
    ]);
  });

  it('yields one entry per target, types users, groups, service principals and domains by kind, leaves Directory and Other untyped', () => {
    const entries = attributionFromAudits(
      [
        audit({
          category: 'GroupManagement',
          activityDisplayName: 'Add member to group',
          targetResources: [
            { id: 'u-9', type: 'User' },
            { id: 'g-1', type: 'Group' },
          ],
        }),
        audit({
          category: 'ApplicationManagement',
          activityDisplayName: 'Update service principal',
          targetResources: [{ id: 'sp-1', type: 'ServicePrincipal' }],
        }),
        audit({
          category: 'DirectoryManagement',
          activityDisplayName: 'Set federation settings on domain',
          targetResources: [{ id: 'contoso.com', type: 'Domain' }],
        }),
        audit({
          category: 'DirectoryManagement',
          activityDisplayName: 'Add directory setting',
          targetResources: [{ id: 'fabrikam.com', type: 'Directory' }],
        }),
        audit({
          category: 'RoleManagement',
          activityDisplayName: 'Add role definition',
          targetResources: [{ id: 'rd-1', type: 'Role' }],
        }),
        audit({
          category: 'RoleManagement',
          activityDisplayName: 'Add member to role',
          targetResources: [{ id: 'rd-2', type: 'Role' }],
        }),
        audit({
          category: 'Policy',
          activityDisplayName: 'Update named location',
          targetResources: [{ id: 'nl-1', type: 'Policy' }, { id: '' }],
        }),
      ],
      OWN_APP,
    );
    expect(entries.map((e) => [e.targetId, e.targetType, e.resourceType])).toEqual([
      ['u-9', 'User', 'user'],
      ['g-1', 'Group', 'group'],
      ['sp-1', 'ServicePrincipal', 'service_principal'],
      ['contoso.com', 'Domain', 'domain'],
      ['fabrikam.com', 'Directory', undefined],
      ['rd-1', 'Role', 'role_definition'],
      ['rd-2', 'Role', undefined],
      ['nl-1', 'Policy', 'named_location'],
    ]);
  });

  it('leaves out failed activities and activity that is not configuration, and lists the rest oldest first', () => {
    const entries = attributionFromAudits(
      [
        audit({
          id: 'late',
          activityDateTime: '2026-12-07T12:00:00Z',
          targetResources: [{ id: 'a', type: 'Policy' }],
        }),
        audit({ id: 'failed', result: 'failure', targetResources: [{ id: 'b', type: 'Policy' }] }),
        audit({
          id: 'signin',
          category: 'Authentication',
          activityDisplayName: 'Reset password (self-service)',
          targetResources: [{ id: 'c', type: 'User' }],
        }),
        audit({
          id: 'early',
          activityDateTime: '2026-12-07T08:00:00Z',
          targetResources: [{ id: 'd', type: 'Policy' }],
        }),
      ],
      OWN_APP,
    );
    expect(entries.map((e) => e.eventId)).toEqual(['early', 'late']);
  });

  it('says the provider itself changed an object when the record names no initiator', () => {
    const [entry] = attributionFromAudits(
      [audit({ initiatedBy: { user: null, app: null }, targetResources: [{ id: 'x', type: 'Policy' }] })],
      OWN_APP,
    );
    expect(entry.actor).toEqual({ id: 'unknown', displayName: 'Microsoft Entra ID', type: 'system' });
    expect(entry.byThisService).toBe(false);
  });
});
