import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startSimulator } from '@libs/simulators/okta/index.js';
import type { RunningSimulator } from '@libs/simulators/okta/simulator-options.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';

interface Installed {
  id: string;
  clientSecret: string;
}

describe('API service integrations and the org authorization server', () => {
  let sut: RunningSimulator;
  let client: SimulatorClient;
  let service: Installed;

  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const token = (scope: string, credentials: Installed = service) =>
    client.call('POST', '/oauth2/v1/token', {
      auth: null,
      headers: { authorization: basic(credentials.id, credentials.clientSecret) },
      form: { grant_type: 'client_credentials', scope },
    });
  const bearer = async (scope: string) =>
    ((await token(scope)).body as { access_token: string }).access_token;

  beforeAll(async () => {
    sut = await startSimulator({ users: 20 });
    client = new SimulatorClient(sut);
    const installed = await client.call('POST', '/integrations/api/v1/api-services', {
      json: {
        type: 'idp_backup',
        grantedScopes: ['okta.users.read', 'okta.groups.read', 'okta.groups.manage'],
      },
    });
    expect(installed.status).toBe(201);
    service = installed.body as Installed;
  });

  afterAll(async () => {
    await client.close();
    await sut.close();
  });

  it('installs an integration: 201 with the client id and a one-time secret', async () => {
    expect(service).toMatchObject({
      id: expect.stringMatching(/^0oa\w{17}$/),
      type: 'idp_backup',
      name: 'Idp Backup',
      clientSecret: expect.any(String),
      grantedScopes: ['okta.users.read', 'okta.groups.read', 'okta.groups.manage'],
    });
    const fetched = await client.call('GET', `/integrations/api/v1/api-services/${service.id}`);
    expect(fetched.body).toMatchObject({ id: service.id });
    expect(fetched.body).not.toHaveProperty('clientSecret');
  });

  it('refuses an install without granted scopes (400 E0000001)', async () => {
    const response = await client.call('POST', '/integrations/api/v1/api-services', { json: { type: 'x' } });
    expect([response.status, (response.body as { errorCode: string }).errorCode]).toEqual([400, 'E0000001']);
  });

  it('issues a Bearer token for granted scopes, by client_secret_basic or client_secret_post', async () => {
    const viaBasic = await token('okta.users.read okta.groups.read');
    expect(viaBasic.status).toBe(200);
    expect(viaBasic.body).toEqual({
      token_type: 'Bearer',
      expires_in: 3600,
      access_token: expect.any(String),
      scope: 'okta.users.read okta.groups.read',
    });
    const viaPost = await client.call('POST', '/oauth2/v1/token', {
      auth: null,
      form: {
        grant_type: 'client_credentials',
        scope: 'okta.users.read',
        client_id: service.id,
        client_secret: service.clientSecret,
      },
    });
    expect(viaPost.status).toBe(200);
  });

  it.each([
    ['okta.apps.read', 'The following scopes are not allowed: okta.apps.read'],
    ['okta.users.read okta.apps.read', 'The following scopes are not allowed: okta.apps.read'],
    ['openid', 'One or more scopes are not configured for the authorization server resource.'],
    [
      '',
      "The authorization server resource does not have any configured default scopes, 'scope' must be provided.",
    ],
  ])('refuses scope "%s" with 400 invalid_scope', async (scope, description) => {
    const response = await token(scope);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_scope', error_description: description });
  });

  it('refuses a wrong secret with 401 invalid_client', async () => {
    const response = await token('okta.users.read', { ...service, clientSecret: 'wrong' });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: 'invalid_client' });
  });

  it('lets a Bearer token call what its scopes allow, and answers 403 E0000006 otherwise', async () => {
    const access = await bearer('okta.users.read');
    expect((await client.call('GET', '/api/v1/users', { auth: { bearer: access } })).status).toBe(200);
    const apps = await client.call('GET', '/api/v1/apps', { auth: { bearer: access } });
    expect(apps.status).toBe(403);
    expect(apps.body).toMatchObject({ errorCode: 'E0000006' });
    expect(apps.headers['www-authenticate']).toContain('error="insufficient_scope"');
    const write = await client.call('POST', '/api/v1/groups', {
      auth: { bearer: await bearer('okta.groups.read') },
      json: { profile: { name: 'Writers' } },
    });
    expect(write.status).toBe(403);
    const manage = await client.call('POST', '/api/v1/groups', {
      auth: { bearer: await bearer('okta.groups.manage') },
      json: { profile: { name: 'Writers' } },
    });
    expect(manage.status).toBe(200);
  });

  it('revokes the client and its tokens when the integration is deleted', async () => {
    const access = await bearer('okta.users.read');
    expect((await client.call('DELETE', `/integrations/api/v1/api-services/${service.id}`)).status).toBe(204);
    expect((await client.call('GET', '/api/v1/users', { auth: { bearer: access } })).status).toBe(401);
    expect((await token('okta.users.read')).status).toBe(401);
  });
});
