import { describe, expect, it } from '@jest/globals';

import { type Entry, replaced } from '@libs/simulators/okta/store/entry.js';
import { render, serialize, userListText } from './links.js';

const BASE = 'https://127.0.0.1:8443';

describe('objects as the simulator serves them', () => {
  it.each<[string, Parameters<typeof serialize>[0], Entry, string[]]>([
    [
      'an app user, with the links Okta sends',
      'app_user_assignment',
      { data: { id: '00u1', scope: 'USER', credentials: { userName: 'zoë@example.com' }, profile: {} } },
      ['0oa1'],
    ],
    ['a group with nothing but links', 'group', { data: {} }, []],
    ['a group rule, which has no links', 'group_rule', { data: { id: '0pr1', name: 'Engineering' } }, []],
    [
      'an object with link paths of its own',
      'user_type',
      { data: { id: 'oty1', name: 'user' }, linkPaths: { schema: '/api/v1/meta/schemas/user/osc1' } },
      [],
    ],
    [
      'an object whose _links member is present but undefined',
      'group',
      { data: { id: '00g1', _links: undefined, profile: { name: 'Everyone' } } },
      [],
    ],
  ])('writes %s as JSON.stringify writes the rendered object', (_case, type, entry, parents) => {
    const sut = serialize(type, entry, BASE, parents);

    expect(sut).toBe(JSON.stringify(render(type, entry, BASE, parents)));
    expect(Object.keys(JSON.parse(sut) as object)).toEqual(Object.keys(render(type, entry, BASE, parents)));
  });

  it('links an app user to its app and user on this simulator', () => {
    const sut = JSON.parse(
      serialize('app_user_assignment', { data: { id: '00u1' } }, BASE, ['0oa1']),
    ) as object;

    expect(sut).toEqual({
      id: '00u1',
      _links: {
        app: { href: `${BASE}/api/v1/apps/0oa1` },
        user: { href: `${BASE}/api/v1/users/00u1` },
      },
    });
  });

  it('sends a recorded object exactly as it was recorded', () => {
    const raw =
      '{"id":"00g1","_links":{"self":{"href":"https:\\/\\/acme.okta.com\\/api\\/v1\\/groups\\/00g1"}}}';

    expect(serialize('group', { data: JSON.parse(raw) as Entry['data'], raw }, BASE)).toBe(raw);
  });

  it('lists a user as serialize does, and anew once a write has replaced its entry', () => {
    const entry: Entry = { data: { id: '00u1', status: 'ACTIVE', profile: { firstName: 'Zoë' } } };
    const first = userListText(entry, BASE);
    const updated = replaced(entry, { ...entry.data, profile: { firstName: 'Zoé' } });

    expect(first).toBe(serialize('user', entry, BASE, [], 'list'));
    expect(userListText(entry, BASE)).toBe(first);
    expect(userListText(updated, BASE)).toBe(serialize('user', updated, BASE, [], 'list'));
    expect(userListText(updated, BASE)).toContain('Zoé');
  });

  it("lists a user shared by two simulators with each one's own links", () => {
    const entry: Entry = { data: { id: '00u1', status: 'ACTIVE' } };
    const other = 'https://127.0.0.1:9443';

    userListText(entry, BASE);

    expect(userListText(entry, other)).toBe(serialize('user', entry, other, [], 'list'));
    expect(userListText(entry, other)).not.toContain(BASE);
  });
});
