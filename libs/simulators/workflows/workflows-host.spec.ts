import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { JWK } from 'jose';

import { type RunningWorkflowsSimulator, startWorkflowsSimulator } from './start-workflows-simulator.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { JWT_BEARER_ASSERTION_TYPE, signClientAssertion } from '@libs/providers/kit/client-assertion.js';

import { INVOKE_SCOPE } from './workflows-host.js';

/** The Workflows personality of the Okta simulator: private_key_jwt tokens, the exporter flow, System Log events. */
describe('Workflows host', () => {
  let sut: RunningWorkflowsSimulator;
  let client: SimulatorClient;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    alg: 'RS256' as const,
  };
  const publicJwk = { ...(publicKey.export({ format: 'jwk' }) as JWK), kid: 'k1', alg: 'RS256' };

  const token = async (clientId: string, scope: string, assertion?: string) => {
    const tokenUrl = new URL('/oauth2/v1/token', sut.baseUrl);
    return client.call('POST', '/oauth2/v1/token', {
      auth: null,
      form: {
        grant_type: 'client_credentials',
        scope,
        client_id: clientId,
        client_assertion_type: JWT_BEARER_ASSERTION_TYPE,
        client_assertion: assertion ?? (await signClientAssertion(key, clientId, tokenUrl, Date.now())),
      },
    });
  };
  const invoke = (bearer: string | null, alias = sut.workflows.exporterAlias) =>
    client.call('POST', `/api/flo/${alias}/invoke`, {
      auth: bearer === null ? undefined : { bearer },
      json: {},
    });

  beforeAll(async () => {
    sut = await startWorkflowsSimulator(
      { users: 3, groups: 1, apps: 1 },
      { flows: 4, tables: 1, rows: 2, seed: 7 },
    );
    client = new SimulatorClient(sut);
  });
  afterAll(async () => {
    await sut?.close();
  });

  it('issues a token to a private_key_jwt client for the scopes it was granted, once per assertion', async () => {
    const clientId = sut.registerServiceApp(publicJwk, [INVOKE_SCOPE]);
    const assertion = await signClientAssertion(
      key,
      clientId,
      new URL('/oauth2/v1/token', sut.baseUrl),
      Date.now(),
    );
    const first = await token(clientId, INVOKE_SCOPE, assertion);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', scope: INVOKE_SCOPE });
    const replayed = await token(clientId, INVOKE_SCOPE, assertion);
    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({ error: 'invalid_client' });
    const notGranted = await token(clientId, `${INVOKE_SCOPE} okta.logs.read`);
    expect(notGranted.status).toBe(400);
    expect(notGranted.body).toMatchObject({
      error_description: 'The following scopes are not allowed: okta.logs.read',
    });
  });

  it('answers the exporter flow with a folder export whose card ids change with every export', async () => {
    const clientId = sut.registerServiceApp(publicJwk, [INVOKE_SCOPE]);
    const bearer = ((await token(clientId, INVOKE_SCOPE)).body as { access_token: string }).access_token;
    const one = await invoke(bearer);
    const two = await invoke(bearer);
    expect(one.status).toBe(200);
    type Answer = {
      export: {
        type: string;
        data: { flos: Record<string, { data: { methods: Array<{ uuid: string; address: string }> } }> };
      };
      tables: Array<{ csv: string }>;
    };
    const [a, b] = [one.body as Answer, two.body as Answer];
    expect(a.export.type).toBe('flopack');
    expect(Object.keys(a.export.data.flos)).toHaveLength(4);
    const flowId = Object.keys(a.export.data.flos)[0];
    const cards = (answer: Answer) => answer.export.data.flos[flowId].data.methods;
    expect(cards(a).map((m) => m.address)).toEqual(cards(b).map((m) => m.address));
    expect(cards(a)[0].uuid).not.toBe(cards(b)[0].uuid);
    expect(a.tables[0].csv.split('\r\n')).toHaveLength(3);
  });

  it('refuses an API token, a token without the scope and an unknown alias', async () => {
    expect((await invoke(null)).status).toBe(401);
    const clientId = sut.registerServiceApp(publicJwk, ['okta.logs.read']);
    const logs = ((await token(clientId, 'okta.logs.read')).body as { access_token: string }).access_token;
    expect((await invoke(logs)).status).toBe(403);
    const invokeId = sut.registerServiceApp(publicJwk, [INVOKE_SCOPE]);
    const bearer = ((await token(invokeId, INVOKE_SCOPE)).body as { access_token: string }).access_token;
    expect((await invoke(bearer, 'no-such-flow')).status).toBe(404);
  });

  it('logs a workflows.user.* event for each change and each export', async () => {
    const flowId = [...sut.workflows.data.flows.keys()][0];
    sut.workflows.changeCardInput(flowId, 1, 'ID or Login', 'x');
    const added = sut.workflows.addFlow('Added', ['apiEndpoint', 'returnRaw']);
    sut.workflows.deleteFlow(added);
    const query = new URLSearchParams({
      filter: 'eventType sw "workflows.user."',
      since: new Date(Date.now() - 60_000).toISOString(),
    });
    const response = await client.call('GET', `/api/v1/logs?${query}`);
    const types = (response.body as Array<{ eventType: string }>).map((event) => event.eventType);
    expect(types).toEqual(
      expect.arrayContaining([
        'workflows.user.folder.export',
        'workflows.user.flow.save',
        'workflows.user.flow.create',
        'workflows.user.flow.delete',
      ]),
    );
  });
});
