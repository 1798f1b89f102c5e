import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startSimulator } from '@libs/simulators/okta/index.js';
import type { RunningSimulator } from '@libs/simulators/okta/simulator-options.js';
import { parseLinks, SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';

type Event = {
  eventType: string;
  published: string;
  uuid: string;
  target: Array<{ id: string; type: string }>;
};

describe('System Log (/api/v1/logs)', () => {
  let sut: RunningSimulator;
  let client: SimulatorClient;
  let start: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    sut = await startSimulator({ users: 40, groups: 6, apps: 5, seed: 4 });
    client = new SimulatorClient(sut);
    start = new Date(Date.now() - 1000).toISOString();
    const snapshot = sut.snapshot();
    const user = snapshot.user.find((u) => u.data.status === 'ACTIVE')!;
    const group = await client.call('POST', '/api/v1/groups', { json: { profile: { name: 'Log me' } } });
    ids.group = (group.body as { id: string }).id;
    ids.user = user.id;
    await client.call('PUT', `/api/v1/groups/${ids.group}/users/${ids.user}`);
    await client.call('DELETE', `/api/v1/groups/${ids.group}/users/${ids.user}`);
    await client.call('DELETE', `/api/v1/groups/${ids.group}`);
    await client.call('DELETE', `/api/v1/users/${ids.user}`);
    await client.call('DELETE', `/api/v1/users/${ids.user}`);
    const app = snapshot.app.find((a) => a.data.status === 'INACTIVE')!;
    ids.app = app.id;
    await client.call('DELETE', `/api/v1/apps/${ids.app}`);
    ids.policy = snapshot.policy.find((p) => p.data.system !== true)!.id;
    await client.call('DELETE', `/api/v1/policies/${ids.policy}`);
  });

  afterAll(async () => {
    await client.close();
    await sut.close();
  });

  const events = async (query: string) =>
    (await client.walk(`/api/v1/logs?${query}`)).items as unknown as Event[];
  const until = () => new Date(Date.now() + 1000).toISOString();

  it('records each write with its event type and targets, oldest first', async () => {
    const logged = await events(`since=${start}&until=${until()}`);
    const summary = logged.map((e) => [e.eventType, e.target.map((t) => `${t.type}:${t.id}`).sort()]);
    expect(summary).toEqual([
      ['group.lifecycle.create', [`UserGroup:${ids.group}`]],
      ['group.user_membership.add', [`User:${ids.user}`, `UserGroup:${ids.group}`].sort()],
      ['group.user_membership.remove', [`User:${ids.user}`, `UserGroup:${ids.group}`].sort()],
      ['group.lifecycle.delete', [`UserGroup:${ids.group}`]],
      ['user.lifecycle.deactivate', [`User:${ids.user}`]],
      ['user.lifecycle.delete.initiated', [`User:${ids.user}`]],
      ['user.lifecycle.delete.completed', [`User:${ids.user}`]],
      ['application.lifecycle.delete', [`AppInstance:${ids.app}`]],
      ['policy.lifecycle.delete', [`PolicyEntity:${ids.policy}`]],
    ]);
    const published = logged.map((e) => Date.parse(e.published));
    expect(published).toEqual([...published].sort((a, b) => a - b));
  });

  it('filters by expression and pages a bounded query until no next link', async () => {
    const filter = encodeURIComponent(
      'eventType eq "group.lifecycle.delete" or eventType eq "user.lifecycle.delete.completed"',
    );
    const { items, pages } = await client.walk(
      `/api/v1/logs?since=${start}&until=${until()}&filter=${filter}&limit=1`,
    );
    expect(items.map((e) => e.eventType)).toEqual([
      'group.lifecycle.delete',
      'user.lifecycle.delete.completed',
    ]);
    expect(pages).toBe(2);
    expect(await events(`since=${until()}&until=${until()}`)).toEqual([]);
    const newestFirst = await events(`since=${start}&until=${until()}&sortOrder=DESCENDING&limit=4`);
    expect(newestFirst[0].eventType).toBe('policy.lifecycle.delete');
  });

  it('polls: without until the last page still links to the next, which later holds new events', async () => {
    const first = await client.call('GET', `/api/v1/logs?since=${start}&limit=1000`);
    const next = parseLinks(first.headers.link).next;
    expect(next).toBeDefined();
    const empty = await client.call('GET', next);
    expect(empty.body).toEqual([]);
    await client.call('POST', '/api/v1/groups', { json: { profile: { name: 'Later' } } });
    const later = await client.call('GET', next);
    expect((later.body as Event[]).map((e) => e.eventType)).toEqual(['group.lifecycle.create']);
  });

  it('answers a Bearer token only with okta.logs.read (403 E0000006 otherwise)', async () => {
    const token = async (scopes: string[]) => {
      const installed = await client.call('POST', '/integrations/api/v1/api-services', {
        json: { type: 'log_reader', grantedScopes: scopes },
      });
      const { id, clientSecret } = installed.body as { id: string; clientSecret: string };
      const issued = await client.call('POST', '/oauth2/v1/token', {
        auth: null,
        form: {
          grant_type: 'client_credentials',
          scope: scopes.join(' '),
          client_id: id,
          client_secret: clientSecret,
        },
      });
      return (issued.body as { access_token: string }).access_token;
    };
    const url = `/api/v1/logs?since=${start}&limit=1`;
    const refused = await client.call('GET', url, { auth: { bearer: await token(['okta.users.read']) } });
    expect([refused.status, (refused.body as { errorCode: string }).errorCode]).toEqual([403, 'E0000006']);
    const allowed = await client.call('GET', url, { auth: { bearer: await token(['okta.logs.read']) } });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toEqual([expect.objectContaining({ uuid: expect.any(String), version: '0' })]);
  });
});
