import { describe, expect, it } from '@jest/globals';
import { EntraConnector } from '@libs/providers/entra/entra-connector.js';
import { entraBackupPermissions } from '@libs/providers/entra/entra-resource-catalog.js';
import { ProviderAuthError } from '@libs/providers/provider-errors.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import {
  type RestoreTestTenant,
  useRestoreTestTenant,
} from '@libs/simulators/entra/testing/restore-test-tenant.js';
import { SYNCED_FROM_AD } from './directory.js';

const WRITER = [
  'User.ReadWrite.All',
  'User.DeleteRestore.All',
  'Group.ReadWrite.All',
  'GroupMember.ReadWrite.All',
];

/**
 * The directory's restore definitions (users, groups, members, owners) against the Graph
 * simulator over HTTPS: each object changed or removed as an admin would, written back from its
 * backed-up record, and read back equal by fingerprint; what a restore must leave alone (users
 * and groups AD syncs, members of dynamic groups) and a missing write permission.
 */
describe('Entra directory restore definitions (Graph simulator)', () => {
  let tenant: RestoreTestTenant;
  useRestoreTestTenant({ users: 12, groups: 3, seed: 311 }, (started) => {
    tenant = started;
  });

  it('changes a user and a group back into their backed-up records', async () => {
    const sut = tenant.restorer();
    const [user] = await tenant.records('user');
    const [group] = await tenant.records('group');
    expect(
      (await tenant.call(WRITER, 'PATCH', `/users/${user.id}`, { jobTitle: 'Intern', department: 'None' }))
        .status,
    ).toBe(204);
    expect(
      (await tenant.call(WRITER, 'PATCH', `/groups/${group.id}`, { description: 'changed' })).status,
    ).toBe(204);

    expect(await tenant.restore(sut, user)).toEqual({ id: user.id, notes: [] });
    expect(await tenant.restore(sut, group)).toEqual({ id: group.id, notes: [] });
    for (const backedUp of [user, group]) {
      const live = await tenant.record(backedUp.type as 'user' | 'group', backedUp.id);
      expect(sut.fingerprint(live!)).toBe(sut.fingerprint(backedUp));
    }
  });

  it('adds a removed member and owner back, and counts a link that exists as made', async () => {
    const sut = tenant.restorer();
    const [membership] = await tenant.records('group_membership');
    const [groupId, memberId] = membership.id.split(':');
    expect((await tenant.call(WRITER, 'DELETE', `/groups/${groupId}/members/${memberId}/$ref`)).status).toBe(
      204,
    );
    const owner: ResourceRecord = {
      type: 'group_owner',
      id: `${groupId}:${memberId}`,
      name: null,
      data: { groupId, ownerId: memberId, ownerType: 'user' },
    };

    await sut.prepare(['group_membership', 'group_owner']);
    expect(await sut.apply({ action: 'create', record: membership, with: [] })).toEqual({
      id: membership.id,
      notes: [],
    });
    expect(await sut.apply({ action: 'create', record: owner, with: [] })).toEqual({
      id: owner.id,
      notes: [],
    });
    // Again: Graph answers 400 "added object references already exist", which is done.
    expect(await sut.apply({ action: 'create', record: membership, with: [] })).toEqual({
      id: membership.id,
      notes: [],
    });
    expect((await tenant.records('group_membership')).map((r) => r.id)).toContain(membership.id);
    expect((await tenant.records('group_owner')).map((r) => r.id)).toContain(owner.id);
  });

  it('never writes users and groups Active Directory syncs, nor the members of a dynamic group', () => {
    const sut = tenant.restorer();
    const synced: ResourceRecord = {
      type: 'user',
      id: '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9',
      name: 'ad.user@contoso.com',
      data: {
        id: '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9',
        userPrincipalName: 'ad.user@contoso.com',
        onPremisesSyncEnabled: true,
      },
    };
    expect(sut.managedBecause(synced)).toBe(SYNCED_FROM_AD);
    expect(sut.live(synced).protectedBecause).toBe(SYNCED_FROM_AD);

    const dynamic: ResourceRecord = {
      type: 'group',
      id: '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
      name: 'Sales (dynamic)',
      data: {
        id: '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
        groupTypes: ['DynamicMembership'],
        membershipRule: 'user.department -eq "Sales"',
      },
    };
    sut.live(dynamic);
    const member: ResourceRecord = {
      type: 'group_membership',
      id: `${dynamic.id}:${synced.id}`,
      name: null,
      data: { groupId: dynamic.id, memberId: synced.id, memberType: 'user' },
    };
    expect(sut.managedBecause(member)).toMatch(/dynamic group/);
  });

  it('stops at the first write of a type whose write permission the app lacks, naming it', async () => {
    const app = tenant.sim.registerApp(entraBackupPermissions());
    const connector = new EntraConnector({
      graphUrl: tenant.sim.baseUrl,
      tenantId: tenant.sim.tenantId,
      ...app,
      allowedHosts: ['127.0.0.1'],
      caCertPem: tenant.sim.caCertPem,
    });
    try {
      const sut = connector.restorer({ activateUsers: false });
      await sut.prepare(['group_membership']);
      const [membership] = await tenant.records('group_membership');
      const write = sut.apply({ action: 'create', record: membership, with: [] });
      await expect(write).rejects.toBeInstanceOf(ProviderAuthError);
      await expect(write).rejects.toThrow(/GroupMember\.ReadWrite\.All.*a restore needs/);
    } finally {
      await connector.close();
    }
  });
});
