import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startEntraSimulator, type RunningEntraSimulator } from './simulator.js';
import { DIRECTORY_WRITER_ROLES, graphClient, type GraphTestClient } from './testing/graph-client.js';

/**
 * Delta queries, soft delete and restore as a Graph client sees them: a delta link from now
 * (`$deltatoken=latest`), then the changes the write routes make, `@removed` tombstones,
 * `members@delta`, the deleted items and their restore, and the 410 of a lost sync state.
 */
describe('Entra simulator delta queries and deleted items', () => {
  let sim: RunningEntraSimulator;
  let readerClient: GraphTestClient;
  let writerClient: GraphTestClient;
  const reader = 'reader';
  const writer = 'writer';
  const call = (method: string, path: string, who: 'reader' | 'writer', body?: unknown) =>
    (who === 'reader' ? readerClient : writerClient).call(method, path, body);

  /** Every entry of a delta round from `link`, and the round's delta link. */
  const round = async (link: string) => {
    const entries: Array<Record<string, unknown>> = [];
    let next: string | undefined = link;
    for (;;) {
      const page = await call('GET', next, reader);
      expect(page.status).toBe(200);
      entries.push(...page.body.value);
      next = page.body['@odata.nextLink'] as string | undefined;
      if (!next) return { entries, deltaLink: page.body['@odata.deltaLink'] as string };
    }
  };

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 120, groups: 3, seed: 3 });
    readerClient = await graphClient(sim, ['User.Read.All', 'Group.Read.All']);
    writerClient = await graphClient(sim, DIRECTORY_WRITER_ROLES);
  });
  afterAll(async () => {
    await readerClient?.close();
    await writerClient?.close();
    await sim?.close();
  });

  it('lists every user in an initial round, paged, ending with a delta link', async () => {
    const initial = await round('/v1.0/users/delta?$select=id,displayName');
    expect(initial.entries).toHaveLength(120);
    expect(Object.keys(initial.entries[0]).sort()).toEqual(['displayName', 'id']);
    expect(new URL(initial.deltaLink).pathname).toBe('/v1.0/users/delta');
    expect(new URL(initial.deltaLink).searchParams.get('$deltatoken')).toEqual(expect.any(String));
    expect((await round(initial.deltaLink)).entries).toEqual([]);
  });

  it('reports created, updated (changed properties only) and removed users since a link from now', async () => {
    const { deltaLink: from, entries: none } = await round(
      '/v1.0/users/delta?$deltatoken=latest&$select=id,displayName,department',
    );
    expect(none).toEqual([]);
    const [first, second] = sim.snapshot().user;
    expect(await call('PATCH', `/v1.0/users/${first.id}`, writer, { department: 'Audit' })).toMatchObject({
      status: 204,
    });
    // Not selected: this change does not make the user appear.
    expect((await call('PATCH', `/v1.0/users/${second.id}`, writer, { jobTitle: 'CTO' })).status).toBe(204);
    const made = await call('POST', '/v1.0/users', writer, {
      accountEnabled: true,
      displayName: 'Nia Okafor',
      mailNickname: 'nia',
      userPrincipalName: 'nia@contoso.onmicrosoft.com',
      passwordProfile: { password: 'x-Very-Secret-1' },
    });
    expect(made.status).toBe(201);
    expect(JSON.stringify(made.body)).not.toContain('x-Very-Secret-1');
    expect((await call('DELETE', `/v1.0/users/${second.id}`, writer)).status).toBe(204);
    const { entries, deltaLink } = await round(from);
    expect(entries).toEqual([
      { id: first.id, department: 'Audit' },
      { id: second.id, '@removed': { reason: 'changed' } },
      { id: made.body.id, displayName: 'Nia Okafor', department: null },
    ]);
    expect((await round(deltaLink)).entries).toEqual([]);
  });

  it('keeps a deleted user in the deleted items (cast required) and restores it with its memberships', async () => {
    const groupWithUser = sim.snapshot().group_membership.find((m) => m.data.memberType === 'user')!;
    const userId = String(groupWithUser.data.memberId);
    const groupId = String(groupWithUser.data.groupId);
    const { deltaLink: from } = await round(
      '/v1.0/groups/delta?$deltatoken=latest&$select=id,displayName,members',
    );
    expect((await call('DELETE', `/v1.0/users/${userId}`, writer)).status).toBe(204);
    expect((await call('GET', '/v1.0/directory/deletedItems', reader)).status).toBe(400);
    const deleted = await call('GET', '/v1.0/directory/deletedItems/microsoft.graph.user', reader);
    expect(deleted.body.value.map((u) => u.id)).toContain(userId);
    expect(deleted.body.value.find((u) => u.id === userId)?.deletedDateTime).toEqual(expect.any(String));
    const removal = await round(from);
    expect(removal.entries).toContainEqual({
      id: groupId,
      'members@delta': [
        { '@odata.type': '#microsoft.graph.user', id: userId, '@removed': { reason: 'deleted' } },
      ],
    });
    expect((await call('POST', `/v1.0/directory/deletedItems/${userId}/restore`, reader)).status).toBe(403);
    const restored = await call('POST', `/v1.0/directory/deletedItems/${userId}/restore`, writer);
    expect(restored).toMatchObject({
      status: 200,
      body: { id: userId, '@odata.type': '#microsoft.graph.user' },
    });
    expect(sim.snapshot().group_membership.map((m) => m.id)).toContain(`${groupId}:${userId}`);
    const back = await round(removal.deltaLink);
    expect(back.entries).toContainEqual({
      id: groupId,
      'members@delta': [{ '@odata.type': '#microsoft.graph.user', id: userId }],
    });
  });

  it('deletes cloud security and Microsoft 365 groups to the deleted items, distribution groups for good (Delete group, MC1183299)', async () => {
    const { deltaLink: from } = await round('/v1.0/groups/delta?$deltatoken=latest');
    const security = sim.snapshot().group[0];
    const create = (body: Record<string, unknown>) => call('POST', '/v1.0/groups', writer, body);
    const unified = await create({
      displayName: 'Project Falcon',
      mailEnabled: true,
      mailNickname: 'falcon',
      securityEnabled: false,
      groupTypes: ['Unified'],
    });
    const distribution = await create({
      displayName: 'All Sales',
      mailEnabled: true,
      mailNickname: 'allsales',
      securityEnabled: false,
      groupTypes: [],
    });
    expect([unified.status, distribution.status]).toEqual([201, 201]);
    const { deltaLink: afterCreate } = await round(from);
    for (const id of [security.id, unified.body.id, distribution.body.id])
      expect((await call('DELETE', `/v1.0/groups/${String(id)}`, writer)).status).toBe(204);
    const deleted = await call('GET', '/v1.0/directory/deletedItems/microsoft.graph.group', reader);
    expect(deleted.body.value.map((g) => g.id).sort()).toEqual([security.id, unified.body.id].sort());
    const { entries } = await round(afterCreate);
    expect(entries).toEqual(
      expect.arrayContaining([
        { id: security.id, '@removed': { reason: 'changed' } },
        { id: unified.body.id, '@removed': { reason: 'changed' } },
        { id: distribution.body.id, '@removed': { reason: 'deleted' } },
      ]),
    );
    const restored = await call('POST', `/v1.0/directory/deletedItems/${security.id}/restore`, writer);
    expect(restored).toMatchObject({ status: 200, body: { id: security.id, securityEnabled: true } });
  });

  it('answers 410 with a Location to start over once the sync state is gone', async () => {
    const { deltaLink } = await round('/v1.0/users/delta?$deltatoken=latest');
    sim.resetDeltaState();
    const gone = await call('GET', deltaLink, reader);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ error: { code: 'resyncRequired' } });
    expect(gone.headers.location).toBe(`${sim.baseUrl}/v1.0/users/delta?$deltatoken=`);
    const again = await call('GET', String(gone.headers.location), reader);
    expect(again.status).toBe(200);
    expect((await call('GET', '/v1.0/users/delta?$deltatoken=forged', reader)).status).toBe(410);
  });
});
