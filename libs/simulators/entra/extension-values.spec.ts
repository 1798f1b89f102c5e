import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startEntraSimulator, type RunningEntraSimulator } from './simulator.js';
import { graphClient, type GraphTestClient } from './testing/graph-client.js';

/**
 * Directory extensions as Graph holds them (extensibility-overview, "Directory (Microsoft Entra
 * ID) extensions"): values set by PATCH, returned only when selected, names checked.
 */
describe('Entra simulator: directory extension values', () => {
  let sim: RunningEntraSimulator;
  let client: GraphTestClient;
  let appPath: string;
  let name: string;

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 4, groups: 1, seed: 11 });
    client = await graphClient(sim, [
      'User.ReadWrite.All',
      'Application.ReadWrite.All',
      'Directory.Read.All',
    ]);
    const app = await client.call('POST', '/v1.0/applications', { displayName: 'Badges' });
    appPath = `/v1.0/applications/${String(app.body.id)}`;
    const extension = await client.call('POST', `${appPath}/extensionProperties`, {
      name: 'badge',
      dataType: 'String',
      targetObjects: ['User'],
    });
    name = String(extension.body.name);
  });
  afterAll(async () => {
    await client?.close();
    await sim?.close();
  });

  it('keeps a value set by PATCH, returned only when $select names it, removed by null', async () => {
    const [user] = sim.snapshot().user;
    expect((await client.call('PATCH', `/v1.0/users/${user.id}`, { [name]: 'B-7' })).status).toBe(204);
    const plain = await client.call('GET', `/v1.0/users/${user.id}`);
    expect(plain.body).not.toHaveProperty(name);
    const selected = await client.call('GET', `/v1.0/users/${user.id}?$select=id,${name}`);
    expect(selected.body[name]).toBe('B-7');
    const listed = await client.call('GET', `/v1.0/users?$select=id,${name}`);
    expect(listed.body.value.find(({ id }) => id === user.id)?.[name]).toBe('B-7');
    await client.call('PATCH', `/v1.0/users/${user.id}`, { [name]: null });
    expect((await client.call('GET', `/v1.0/users/${user.id}?$select=id,${name}`)).body[name]).toBeNull();
  });

  it('answers 400 for an extension name the tenant does not declare for users, and writes nothing', async () => {
    const [user] = sim.snapshot().user;
    for (const bad of ['extension_0123456789abcdef0123456789abcdef_gone', 'extension_badge'])
      expect(
        await client.call('PATCH', `/v1.0/users/${user.id}`, { displayName: 'Not written', [bad]: 'x' }),
      ).toMatchObject({ status: 400, body: { error: { code: 'Request_BadRequest' } } });
    expect(sim.snapshot().user.find(({ id }) => id === user.id)?.data.displayName).toBe(
      user.data.displayName,
    );
  });

  it('lists every extension property of the tenant (getAvailableExtensionProperties)', async () => {
    const answer = await client.call('POST', '/v1.0/directoryObjects/getAvailableExtensionProperties', {
      isSyncedFromOnPremises: false,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.value.map((extension) => extension.name)).toContain(name);
    const synced = await client.call('POST', '/v1.0/directoryObjects/getAvailableExtensionProperties', {
      isSyncedFromOnPremises: true,
    });
    expect(synced.body.value).toEqual([]);
  });
});
