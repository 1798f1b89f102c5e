import type { RunningEntraSimulator } from '@libs/simulators/entra/simulator.js';
import type { GraphTestClient } from './graph-client.js';

/** What `changeTenantAsAdmins` did, by object id. */
export interface TenantChanges {
  updatedUser: string;
  createdUser: string;
  deletedUser: string;
  /** deleted, then restored from the deleted items with its memberships */
  restoredUser: string;
  createdGroup: string;
  deletedGroup: string;
  /** `<groupId>:<memberId>` removed */
  removedMembership: string;
  updatedApplication: string;
  /** deleted to the deleted items */
  deletedServicePrincipal: string;
  updatedAdministrativeUnit: string;
  updatedGrant: string;
  createdGrant: string;
}

/**
 * For specs: changes a tenant through Graph as its admins would, with a client of an app granted
 * DIRECTORY_WRITER_ROLES: a user updated, one created and added to a new Microsoft 365 group, a
 * member removed from a group, a user deleted, another deleted and restored (its memberships come
 * back), a security group deleted (for good); an application and an administrative unit renamed,
 * a service principal no grant names deleted, a delegated permission grant's scope changed and
 * one created for a user (Principal consent). Needs at least 4 users, 2 groups with members, and a generated
 * tenant's applications, grant and administrative unit.
 * @throws Error when Graph refuses a change
 */
export async function changeTenantAsAdmins(
  sim: RunningEntraSimulator,
  graph: GraphTestClient,
): Promise<TenantChanges> {
  const before = sim.snapshot();
  const expect = async (status: number, method: string, path: string, body?: unknown) => {
    const answer = await graph.call(method, path, body);
    if (answer.status !== status)
      throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const member = (id: string) => ({ '@odata.id': `https://graph.microsoft.com/v1.0/directoryObjects/${id}` });
  const memberships = before.group_membership.filter((m) => m.data.memberType === 'user');
  const removed = memberships[0];
  const members = new Set(memberships.map((m) => String(m.data.memberId)));
  const [updatedUser, deletedUser, restoredUser] = before.user
    .map((u) => u.id)
    .filter((id) => id !== removed.data.memberId && members.has(id));
  const deletedGroup = before.group.find((g) => g.id !== removed.data.groupId)!.id;

  await expect(204, 'PATCH', `/v1.0/users/${updatedUser}`, {
    department: 'Internal Audit',
    jobTitle: 'Auditor',
  });
  const created = await expect(201, 'POST', '/v1.0/users', {
    accountEnabled: true,
    displayName: 'Nia Okafor',
    mailNickname: 'nia.okafor',
    userPrincipalName: `nia.okafor@${String(before.domain[0].id)}`,
    passwordProfile: { forceChangePasswordNextSignIn: true, password: 'Initial-Passw0rd!' },
  });
  const group = await expect(201, 'POST', '/v1.0/groups', {
    displayName: 'Project Falcon',
    mailEnabled: true,
    mailNickname: 'falcon',
    securityEnabled: false,
    groupTypes: ['Unified'],
  });
  await expect(204, 'POST', `/v1.0/groups/${String(group.id)}/members/$ref`, member(String(created.id)));
  await expect(204, 'POST', `/v1.0/groups/${String(group.id)}/members/$ref`, member(restoredUser));
  await expect(
    204,
    'DELETE',
    `/v1.0/groups/${String(removed.data.groupId)}/members/${String(removed.data.memberId)}/$ref`,
  );
  await expect(204, 'DELETE', `/v1.0/users/${deletedUser}`);
  await expect(204, 'DELETE', `/v1.0/users/${restoredUser}`);
  await expect(200, 'POST', `/v1.0/directory/deletedItems/${restoredUser}/restore`);
  await expect(204, 'DELETE', `/v1.0/groups/${deletedGroup}`);

  const [grant] = before.oauth2_permission_grant;
  const granted = new Set([String(grant.data.clientId), String(grant.data.resourceId)]);
  const [application] = before.application;
  const deletedServicePrincipal = before.service_principal.find((sp) => !granted.has(sp.id))!.id;
  const [unit] = before.administrative_unit;
  await expect(204, 'PATCH', `/v1.0/applications/${application.id}`, {
    displayName: `${String(application.data.displayName)} (legacy)`,
  });
  await expect(204, 'DELETE', `/v1.0/servicePrincipals/${deletedServicePrincipal}`);
  await expect(204, 'PATCH', `/v1.0/directory/administrativeUnits/${unit.id}`, {
    displayName: 'Paris and Lyon offices',
  });
  await expect(204, 'PATCH', `/v1.0/oauth2PermissionGrants/${grant.id}`, {
    scope: `${String(grant.data.scope)} email`,
  });
  // One user consents for themself to what the tenant granted for all.
  const createdGrant = await expect(201, 'POST', '/v1.0/oauth2PermissionGrants', {
    clientId: grant.data.clientId,
    consentType: 'Principal',
    principalId: updatedUser,
    resourceId: grant.data.resourceId,
    scope: 'User.Read',
  });
  return {
    updatedUser,
    createdUser: String(created.id),
    deletedUser,
    restoredUser,
    createdGroup: String(group.id),
    deletedGroup,
    removedMembership: removed.id,
    updatedApplication: application.id,
    deletedServicePrincipal,
    updatedAdministrativeUnit: unit.id,
    updatedGrant: grant.id,
    createdGrant: String(createdGrant.id),
  };
}
