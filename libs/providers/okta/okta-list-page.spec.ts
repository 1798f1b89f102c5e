import { isUtf8 } from 'node:buffer';

import { describe, expect, it } from '@jest/globals';

import { OKTA_VOLATILE_FIELDS } from '@libs/providers/okta/okta-volatile-fields.js';
import { contentHash } from '@libs/snapshot/content-hash.js';
import type { EncodedRecords } from '@libs/snapshot/encoded-records.js';

import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import { type ListPageTask, ENCODABLE_TYPES, encodeListPage } from './okta-list-page.js';
import { encodeOktaPage } from './okta-page-worker.js';

const APP_USERS = [
  {
    id: '00u1',
    scope: 'USER',
    status: 'ACTIVE',
    lastUpdated: '2026-11-20T10:00:00.000Z',
    credentials: { userName: 'zoë@example.com', password: { value: 'Sw0rdfish!' } },
    profile: { email: 'zoë@example.com' },
    _links: { user: { href: 'https://acme.okta.com/api/v1/users/00u1' } },
  },
  { id: '00u2', scope: 'GROUP', status: 'ACTIVE', credentials: { userName: 'li@example.com' } },
];

function task(type: ListPageTask['type'], body: string, template: string): ListPageTask {
  return {
    type,
    parent: { id: '0oa1', keys: {} },
    template,
    body: new TextEncoder().encode(body) as Uint8Array<ArrayBuffer>,
    volatileFields: OKTA_VOLATILE_FIELDS,
  };
}

const appUsersPage = () =>
  task('app_user_assignment', JSON.stringify(APP_USERS), '/api/v1/apps/{appId}/users');

/** The records an encoding holds, read back from its lines. */
function decoded(encoded: EncodedRecords): unknown[] {
  const text = new TextDecoder();
  return Array.from(encoded.ends, (end, index) =>
    JSON.parse(text.decode(encoded.lines.subarray(index === 0 ? 0 : encoded.ends[index - 1], end))),
  );
}

describe('Okta list pages encoded for a snapshot', () => {
  it('encodes the records the collector yields: composite ids, secrets stripped, content hashes', () => {
    const sut = encodeListPage(appUsersPage());

    // Okta's `credentials.password` says a password is set; only its value is a secret.
    const first = { ...APP_USERS[0], credentials: { userName: 'zoë@example.com', password: {} } };
    expect(decoded(sut)).toEqual([
      { type: 'app_user_assignment', id: '0oa1:00u1', name: null, data: first },
      { type: 'app_user_assignment', id: '0oa1:00u2', name: null, data: APP_USERS[1] },
    ]);
    expect(sut.ids).toEqual(['0oa1:00u1', '0oa1:00u2']);
    expect(sut.hashes).toEqual([
      contentHash(first, OKTA_VOLATILE_FIELDS),
      contentHash(APP_USERS[1], OKTA_VOLATILE_FIELDS),
    ]);
    expect(JSON.stringify(decoded(sut))).not.toContain('Sw0rdfish!');
  });

  it('keeps only the ids of group members, whose users the user part holds', () => {
    const sut = encodeListPage(
      task('group_membership', JSON.stringify(APP_USERS), '/api/v1/groups/{groupId}/users'),
    );

    expect(decoded(sut)).toEqual([
      { type: 'group_membership', id: '0oa1:00u1', name: null, data: { groupId: '0oa1', userId: '00u1' } },
      { type: 'group_membership', id: '0oa1:00u2', name: null, data: { groupId: '0oa1', userId: '00u2' } },
    ]);
  });

  it('encodes a page of users, which has no parent, with their logins as names', () => {
    const users = [
      { id: '00u1', status: 'ACTIVE', profile: { login: 'zoë@example.com' }, credentials: { provider: {} } },
      { id: '00u2', status: 'DEPROVISIONED', profile: { login: 'li@example.com' } },
    ];

    const sut = encodeListPage({
      ...task('user', JSON.stringify(users), '/api/v1/users'),
      parent: undefined,
    });

    expect(decoded(sut)).toEqual([
      { type: 'user', id: '00u1', name: 'zoë@example.com', data: users[0] },
      { type: 'user', id: '00u2', name: 'li@example.com', data: users[1] },
    ]);
    expect(sut.hashes).toEqual(users.map((user) => contentHash(user, OKTA_VOLATILE_FIELDS)));
  });

  it("keeps Okta's own text of each record stored unredacted, and serializes the redacted one", () => {
    // Escapes and spaces JSON.stringify would not write: the line holds them as Okta sent them.
    const kept = '{"id":"00u2", "scope":"GROUP","credentials":{"userName":"caf\\u00e9@example.com"}}';
    const redacted = JSON.stringify(APP_USERS[0]).replace('"scope"', ' "scope"');
    const page = task('app_user_assignment', `[${redacted},${kept}]`, '/api/v1/apps/{appId}/users');

    const sut = encodeListPage(page);

    const [first, second] = [sut.lines.subarray(0, sut.ends[0]), sut.lines.subarray(sut.ends[0])];
    expect(new TextDecoder().decode(second)).toBe(
      `{"type":"app_user_assignment","id":"0oa1:00u2","name":null,"data":${kept}}`,
    );
    expect(new TextDecoder().decode(first)).not.toContain('Sw0rdfish!');
    expect(new TextDecoder().decode(first)).not.toContain(' "scope"');
    const keptData = JSON.parse(kept) as Record<string, unknown>;
    expect(decoded(sut)[1]).toEqual({
      type: 'app_user_assignment',
      id: '0oa1:00u2',
      name: null,
      data: keptData,
    });
    expect(sut.hashes[1]).toBe(contentHash(keptData, OKTA_VOLATILE_FIELDS));
  });

  it('writes one line per record of a pretty-printed page, or of one that is not valid UTF-8', () => {
    const pretty = task(
      'app_user_assignment',
      JSON.stringify(APP_USERS, null, 2),
      '/api/v1/apps/{appId}/users',
    );
    const broken = appUsersPage();
    // A byte that is no UTF-8 in the second user's name, which reads as U+FFFD.
    broken.body[broken.body.indexOf(0x40, broken.body.lastIndexOf(0x7b))] = 0xff;

    const fromPretty = encodeListPage(pretty);
    const fromBroken = encodeListPage(broken);

    expect(decoded(fromPretty)).toEqual(decoded(encodeListPage(appUsersPage())));
    expect(new TextDecoder().decode(fromPretty.lines)).not.toContain('\n');
    expect(isUtf8(fromBroken.lines)).toBe(true);
    expect(decoded(fromBroken)[1]).toMatchObject({
      data: { credentials: { userName: 'li\ufffdexample.com' } },
    });
  });

  it('encodes users and children paged by Link headers that are no type parent', () => {
    expect(ENCODABLE_TYPES).toContain('user');
    expect(ENCODABLE_TYPES).toContain('app_user_assignment');
    expect(ENCODABLE_TYPES).toContain('group_membership');
    // A parent (its customizations need its remembered keys), a list paged by `_links.next`.
    expect(ENCODABLE_TYPES).not.toContain('email_template');
    expect(ENCODABLE_TYPES).not.toContain('resource_set_resource');
    // Top-level lists other than users (groups are a parent; apps too).
    expect(ENCODABLE_TYPES).not.toContain('group');
    expect(ENCODABLE_TYPES).not.toContain('network_zone');
  });

  it('encodes on a worker thread, moving the page there and the encoding back', async () => {
    const page = appUsersPage();

    const sut = await encodeOktaPage(page);

    // Compared as plain values: typed arrays from another thread belong to another realm than Jest's.
    const expected = encodeListPage(appUsersPage());
    expect(decoded(sut)).toEqual(decoded(expected));
    expect([...sut.ends]).toEqual([...expected.ends]);
    expect({ ...sut, lines: 0, ends: 0 }).toEqual({ ...expected, lines: 0, ends: 0 });
    expect(page.body.byteLength).toBe(0); // moved, not copied
  });

  it.each([
    ['a body that is not a JSON array', '{"errorCode":"E0000001"}', 'something other than a JSON array'],
    ['an object without an id', '[{"scope":"USER"}]', 'an object without an id'],
  ])('turns %s into the ProviderRequestError the collector throws', async (_case, body, message) => {
    const failing = task('app_user_assignment', body, '/api/v1/apps/{appId}/users');

    const inWorker = encodeOktaPage(failing);

    await expect(inWorker).rejects.toBeInstanceOf(ProviderRequestError);
    await expect(inWorker).rejects.toMatchObject({ status: 200, message: expect.stringContaining(message) });
    const thrown = await inWorker.then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(() => encodeListPage(task('app_user_assignment', body, '/api/v1/apps/{appId}/users'))).toThrow(
      thrown,
    );
  });
});
