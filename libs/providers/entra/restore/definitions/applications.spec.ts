import { describe, expect, it } from '@jest/globals';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { pairedRecord } from '@libs/providers/testing/paired-record.js';
import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import {
  type RestoreTestTenant,
  useRestoreTestTenant,
} from '@libs/simulators/entra/testing/restore-test-tenant.js';
import { applicationDefinitions } from './applications.js';

const MICROSOFT_GRAPH = '00000003-0000-0000-c000-000000000000';

/** Restore writes of applications, service principals and their children against the simulator. */
describe('application restore definitions (Graph simulator over HTTPS)', () => {
  let tenant: RestoreTestTenant;
  useRestoreTestTenant({ users: 10, groups: 3, seed: 31 }, (started) => {
    tenant = started;
  });

  /** A restorer prepared for `type` once the tenant is as the test broke it. */
  const restorerFor = (type: EntraResourceType) => tenant.prepared([type]);
  /** The live record of the backed-up one's type that a restore pairs with it (id, else natural key). */
  const paired = async (sut: ProviderRestorer, backup: ResourceRecord) =>
    pairedRecord(await tenant.records(backup.type as EntraResourceType), sut, backup);
  const byName = (name: string) => (record: ResourceRecord) => record.name === name;

  it("never writes the connection's own app registration nor its service principal", async () => {
    const sut = await restorerFor('application');
    const [app] = await tenant.records('application');
    const [sp] = await tenant.records('service_principal');
    const own = (record: ResourceRecord) => ({ ...record, data: { ...record.data, appId: tenant.clientId } });
    expect(sut.live(own(app)).protectedBecause).toMatch(/own app registration/);
    expect(sut.live(own(sp)).protectedBecause).toMatch(/own app registration/);
    expect(sut.live(app).protectedBecause).toBeUndefined();
    const held = applicationDefinitions().app_role_assignment!.protectedBecause!;
    expect(held({ principalId: sp.id }, { clientId: tenant.clientId, servicePrincipalId: sp.id })).toMatch(
      /own service principal/,
    );
    expect(held({ principalId: sp.id }, { clientId: tenant.clientId })).toBeNull();
  });

  it('adds an application owner back, and removes one (prune)', async () => {
    const [owner] = await tenant.records('application_owner');
    const [appId, userId] = owner.id.split(':');
    await tenant.adminCall('DELETE', `/v1.0/applications/${appId}/owners/${userId}/$ref`);
    const sut = await restorerFor('application_owner');

    expect(await sut.apply({ action: 'create', record: owner, with: [] })).toMatchObject({ id: owner.id });
    expect(sut.fingerprint((await paired(sut, owner))!)).toBe(sut.fingerprint(owner));
    // Made already (an earlier run): counted as made.
    expect(await sut.apply({ action: 'create', record: owner, with: [] })).toMatchObject({ id: owner.id });

    await sut.apply({ action: 'delete', type: 'application_owner', live: sut.live(owner) });
    expect(await paired(sut, owner)).toBeUndefined();
  });

  it('re-creates a federated identity credential and puts back a changed subject', async () => {
    const [credential] = await tenant.records('federated_identity_credential');
    const [appId, credentialId] = credential.id.split(':');
    const path = `/v1.0/applications/${appId}/federatedIdentityCredentials`;
    await tenant.adminCall('DELETE', `${path}/${credentialId}`);
    const sut = await restorerFor('federated_identity_credential');

    const result = await sut.apply({ action: 'create', record: credential, with: [] });

    expect(result.id).toMatch(new RegExp(`^${appId}:`));
    const live = (await paired(sut, credential))!;
    expect(live.id).toBe(result.id);
    expect(sut.fingerprint(live)).toBe(sut.fingerprint(credential));
    await tenant.adminCall('PATCH', `${path}/${result.id.split(':')[1]}`, {
      subject: 'repo:contoso/other:ref:refs/heads/main',
    });
    const changed = (await paired(sut, credential))!;
    await sut.apply({ action: 'update', record: credential, live: sut.live(changed) });
    expect(sut.fingerprint((await paired(sut, credential))!)).toBe(sut.fingerprint(credential));
  });

  it('re-creates an extension property under its short name, which Graph prefixes again', async () => {
    const [extension] = await tenant.records('extension_property');
    const [appId, extensionId] = extension.id.split(':');
    await tenant.adminCall('DELETE', `/v1.0/applications/${appId}/extensionProperties/${extensionId}`);
    const sut = await restorerFor('extension_property');
    expect(sut.support('extension_property')).toMatchObject({ create: true, update: false, delete: true });

    await sut.apply({ action: 'create', record: extension, with: [] });

    const live = (await paired(sut, extension))!;
    expect(live.data.name).toBe(extension.data.name);
    expect(sut.fingerprint(live)).toBe(sut.fingerprint(extension));
  });

  it('re-creates a purged service principal from its appId, then sets the rest', async () => {
    const sp = (await tenant.records('service_principal')).find(byName('HR portal'))!;
    await tenant.adminCall('PATCH', `/v1.0/servicePrincipals/${sp.id}`, { tags: ['HideApp'] });
    const tagged = (await tenant.records('service_principal')).find((record) => record.id === sp.id)!;
    await tenant.adminCall('DELETE', `/v1.0/servicePrincipals/${sp.id}`);
    await tenant.adminCall('DELETE', `/v1.0/directory/deletedItems/${sp.id}`);
    const sut = await restorerFor('service_principal');

    const result = await sut.apply({ action: 'create', record: tagged, with: [] });

    expect(result.id).not.toBe(sp.id);
    const live = (await paired(sut, tagged))!;
    expect(live).toMatchObject({ id: result.id, data: { appId: sp.data.appId, tags: ['HideApp'] } });
    expect(sut.fingerprint(live)).toBe(sut.fingerprint(tagged));
  });

  it('grants an app role assignment again, and deletes one (prune)', async () => {
    const assignment = (await tenant.records('app_role_assignment')).find(
      (record) => record.data.resourceDisplayName === 'Microsoft Graph',
    )!;
    const [resourceId, assignmentId] = assignment.id.split(':');
    await tenant.adminCall(
      'DELETE',
      `/v1.0/servicePrincipals/${resourceId}/appRoleAssignedTo/${assignmentId}`,
    );
    const sut = await restorerFor('app_role_assignment');

    const result = await sut.apply({ action: 'create', record: assignment, with: [] });

    expect(result.id).toMatch(new RegExp(`^${resourceId}:`));
    const live = (await paired(sut, assignment))!;
    expect(live.id).toBe(result.id);
    expect(sut.fingerprint(live)).toBe(sut.fingerprint(assignment));
    await sut.apply({ action: 'delete', type: 'app_role_assignment', live: sut.live(live) });
    expect(await paired(sut, assignment)).toBeUndefined();
  });

  it('creates a delegated permission grant again and puts back its scope', async () => {
    const [grant] = await tenant.records('oauth2_permission_grant');
    await tenant.adminCall('DELETE', `/v1.0/oauth2PermissionGrants/${grant.id}`);
    const sut = await restorerFor('oauth2_permission_grant');

    await sut.apply({ action: 'create', record: grant, with: [] });

    const live = (await paired(sut, grant))!;
    expect(sut.fingerprint(live)).toBe(sut.fingerprint(grant));
    await tenant.adminCall('PATCH', `/v1.0/oauth2PermissionGrants/${live.id}`, { scope: 'User.Read' });
    const narrowed = (await paired(sut, grant))!;
    await sut.apply({ action: 'update', record: grant, live: sut.live(narrowed) });
    expect((await paired(sut, grant))!.data.scope).toBe(grant.data.scope);
    expect(grant.data.resourceId).toBe(
      (await tenant.records('service_principal')).find((sp) => sp.data.appId === MICROSOFT_GRAPH)!.id,
    );
  });

  // Last: a purged application takes its children and service principal with it.
  it('re-creates a purged application with a new appId, renamed for references, and says its credentials are gone; its service principal follows', async () => {
    const app = (await tenant.records('application')).find(byName('HR portal'))!;
    const sp = (await tenant.records('service_principal')).find(byName('HR portal'))!;
    // Deleting an application deletes its service principal too: both purged.
    await tenant.adminCall('DELETE', `/v1.0/applications/${app.id}`);
    for (const id of [app.id, sp.id]) await tenant.adminCall('DELETE', `/v1.0/directory/deletedItems/${id}`);
    const sut = await restorerFor('application');

    const result = await sut.apply({ action: 'create', record: app, with: [] });

    const oldAppId = String(app.data.appId);
    const newAppId = result.renamed?.[oldAppId];
    expect(result.id).not.toBe(app.id);
    expect(newAppId).toMatch(/^[0-9a-f-]{36}$/);
    expect(newAppId).not.toBe(oldAppId);
    expect(result.notes.join(' ')).toMatch(/client secret/);
    const live = (await tenant.records('application')).find((record) => record.id === result.id)!;
    expect(live.data).toMatchObject({ appId: newAppId, identifierUris: [`api://${newAppId}`] });
    const ids = new Map([
      [app.id, result.id],
      [oldAppId, newAppId!],
    ]);
    expect(sut.fingerprint(live)).toBe(sut.fingerprint(sut.rewrite(app, ids)));
    expect(live.data.passwordCredentials).toEqual([]);

    // The service principal's record, rewritten through the run's ids, names the new appId.
    const spRestorer = await restorerFor('service_principal');
    const rewritten = spRestorer.rewrite(sp, ids);
    expect(rewritten.data).toMatchObject({
      appId: newAppId,
      servicePrincipalNames: [newAppId, `api://${newAppId}`],
    });
    await spRestorer.apply({ action: 'create', record: rewritten, with: [] });
    const liveSp = (await paired(spRestorer, rewritten))!;
    expect(liveSp.data.appId).toBe(newAppId);
    expect(spRestorer.fingerprint(liveSp)).toBe(spRestorer.fingerprint(rewritten));
  });

  it('brings a deleted application back from the deleted items with its id and appId, then updates a changed one', async () => {
    const app = (await tenant.records('application')).find(byName('Deploy pipeline'))!;
    await tenant.adminCall('DELETE', `/v1.0/applications/${app.id}`);
    const sut = await restorerFor('application');

    const result = await sut.apply({ action: 'create', record: app, with: [] });

    expect(result.id).toBe(app.id);
    expect(result.renamed).toBeUndefined();
    const back = (await paired(sut, app))!;
    expect(back.data.appId).toBe(app.data.appId);
    expect(sut.fingerprint(back)).toBe(sut.fingerprint(app));

    await tenant.adminCall('PATCH', `/v1.0/applications/${app.id}`, {
      notes: 'changed',
      signInAudience: 'AzureADMultipleOrgs',
    });
    const changed = (await paired(sut, app))!;
    expect(sut.fingerprint(changed)).not.toBe(sut.fingerprint(app));
    await sut.apply({ action: 'update', record: app, live: sut.live(changed) });
    expect(sut.fingerprint((await paired(sut, app))!)).toBe(sut.fingerprint(app));
  });

  it("re-creates a purged service principal of another organization's app (Microsoft Graph) by its appId", async () => {
    const sp = (await tenant.records('service_principal')).find(
      (record) => record.data.appId === MICROSOFT_GRAPH,
    )!;
    await tenant.adminCall('DELETE', `/v1.0/servicePrincipals/${sp.id}`);
    await tenant.adminCall('DELETE', `/v1.0/directory/deletedItems/${sp.id}`);
    const sut = await restorerFor('service_principal');

    const result = await sut.apply({ action: 'create', record: sp, with: [] });

    const live = (await paired(sut, sp))!;
    expect(live.id).toBe(result.id);
    expect(live.data.appRoles).toEqual(sp.data.appRoles);
    expect(sut.fingerprint(live)).toBe(sut.fingerprint(sp));
  });
});
