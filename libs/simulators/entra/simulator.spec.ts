import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Agent, request } from 'undici';

import { USER_DEFAULT_PROPERTIES } from './seed/users.js';
import { startEntraSimulator, type RunningEntraSimulator } from './simulator.js';

/** What the tests read of an answer: a token, an OData page or an error. */
interface Body {
  access_token: string;
  value: Array<Record<string, string>>;
  '@odata.nextLink'?: string;
  [member: string]: unknown;
}

/** The Graph simulator as a client sees it: the token endpoint's and Graph's answers. */
describe('Entra simulator (generated tenant)', () => {
  let sim: RunningEntraSimulator;
  let dispatcher: Agent;
  let app: { clientId: string; clientSecret: string };

  const call = async (
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ) => {
    const response = await request(`${sim.baseUrl}${path}`, { method, dispatcher, headers, body });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: (await response.body.json()) as Body,
    };
  };
  const token = async (form: Record<string, string>, tenant = sim.tenantId) =>
    call(
      'POST',
      `/${tenant}/oauth2/v2.0/token`,
      { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams(form).toString(),
    );
  const grant = (credentials = app) => ({
    grant_type: 'client_credentials',
    scope: 'https://graph.microsoft.com/.default',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  });
  const bearer = async (credentials = app) => ({
    authorization: `Bearer ${(await token(grant(credentials))).body.access_token}`,
  });

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 250, groups: 3, seed: 7 });
    dispatcher = new Agent({ connect: { ca: sim.caCertPem } });
    app = sim.registerApp(['User.Read.All']);
  });
  afterAll(async () => {
    await dispatcher?.close();
    await sim?.close();
  });

  it('issues a JWT whose roles claim lists the granted application permissions', async () => {
    const answer = await token(grant());
    expect(answer).toMatchObject({ status: 200, body: { token_type: 'Bearer', expires_in: 3599 } });
    const claims = JSON.parse(
      Buffer.from(answer.body.access_token.split('.')[1], 'base64url').toString('utf8'),
    );
    expect(claims).toMatchObject({
      roles: ['User.Read.All'],
      tid: sim.tenantId,
      appid: app.clientId,
      aud: 'https://graph.microsoft.com',
    });
  });

  it('refuses a wrong secret, another scope and an unknown tenant as the identity platform does', async () => {
    expect(await token({ ...grant(), client_secret: 'nope' })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client', error_codes: [7000215] },
    });
    expect(await token({ ...grant(), scope: 'User.Read.All' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope' },
    });
    expect(await token(grant(), 'f00dbabe-0000-4000-a000-000000000000')).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_codes: [90002] },
    });
    // The tenant may be named by its verified domain.
    expect((await token(grant(), 'contoso.onmicrosoft.com')).status).toBe(200);
  });

  it('answers 401 without a token and 403 without the permission, in Graph error bodies', async () => {
    expect(await call('GET', '/v1.0/users')).toMatchObject({
      status: 401,
      body: { error: { code: 'InvalidAuthenticationToken' } },
    });
    expect(await call('GET', '/v1.0/groups', await bearer())).toMatchObject({
      status: 403,
      body: { error: { code: 'Authorization_RequestDenied' } },
    });
  });

  it('pages with $top up to 999 and an opaque nextLink that keeps $select', async () => {
    const headers = await bearer();
    const first = await call('GET', '/v1.0/users?$top=100&$select=id,accountEnabled', headers);
    expect(first.status).toBe(200);
    expect(first.body.value).toHaveLength(100);
    expect(Object.keys(first.body.value[0]).sort()).toEqual(['accountEnabled', 'id']);
    const next = new URL(first.body['@odata.nextLink']!);
    expect(next.searchParams.get('$select')).toBe('id,accountEnabled');
    expect(next.searchParams.get('$skiptoken')).toMatch(/^[A-Za-z0-9_-]+$/);
    const ids = first.body.value.map((user) => user.id);
    for (let url: string | undefined = first.body['@odata.nextLink']; url;) {
      const page = await call('GET', url.slice(sim.baseUrl.length), headers);
      ids.push(...page.body.value.map((user) => user.id));
      url = page.body['@odata.nextLink'];
    }
    expect(new Set(ids).size).toBe(250);
    expect((await call('GET', '/v1.0/users?$top=1000', headers)).status).toBe(400);
    expect((await call('GET', '/v1.0/users?$skiptoken=forged', headers)).status).toBe(400);
  });

  it('returns the default user properties without $select, as user-list documents', async () => {
    const page = await call('GET', '/v1.0/users?$top=1', await bearer());
    expect(Object.keys(page.body.value[0]).sort()).toEqual([...USER_DEFAULT_PROPERTIES].sort());
  });

  it('guards conditional access writes by Policy.ReadWrite.ConditionalAccess', async () => {
    const path = '/v1.0/identity/conditionalAccess/policies/00000000-0000-4000-a000-000000000000';
    const body = JSON.stringify({ state: 'disabled' });
    const json = { 'content-type': 'application/json' };
    const reader = await call('PATCH', path, { ...(await bearer()), ...json }, body);
    expect(reader).toMatchObject({ status: 403, body: { error: { code: 'Authorization_RequestDenied' } } });
    const writer = await bearer(sim.registerApp(['Policy.ReadWrite.ConditionalAccess']));
    expect(await call('PATCH', path, { ...writer, ...json }, body)).toMatchObject({
      status: 404,
      body: { error: { code: 'Request_ResourceNotFound' } },
    });
  });

  it('lists group members as directory objects with their @odata.type', async () => {
    const reader = sim.registerApp(['GroupMember.Read.All']);
    const headers = await bearer(reader);
    const [group] = (await call('GET', '/v1.0/groups', headers)).body.value;
    const members = await call('GET', `/v1.0/groups/${group.id}/members?$select=id`, headers);
    expect(members.status).toBe(200);
    expect(members.body.value.length).toBeGreaterThan(0);
    expect(members.body.value.every((m) => /^#microsoft\.graph\.(user|group)$/.test(m['@odata.type']))).toBe(
      true,
    );
    expect(
      (await call('GET', '/v1.0/groups/00000000-0000-4000-a000-000000000000/members', headers)).status,
    ).toBe(404);
  });
});
