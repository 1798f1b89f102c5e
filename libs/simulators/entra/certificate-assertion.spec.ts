import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Agent, request } from 'undici';
import { selfSignedCertificate } from '@libs/simulators/kit/tls/certificates.js';
import { certificateAssertionKey } from '@libs/providers/kit/certificate-credential.js';
import { signClientAssertion } from '@libs/providers/kit/client-assertion.js';

import { startEntraSimulator, type RunningEntraSimulator } from './simulator.js';

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The token endpoint's certificate credentials, as Microsoft's "certificate credentials" page describes them. */
describe('Entra simulator: client assertions signed with a registered certificate', () => {
  let sim: RunningEntraSimulator;
  let dispatcher: Agent;
  let pem: string;
  let app: { clientId: string };

  const tokenUrl = () => new URL(`${sim.baseUrl}/${sim.tenantId}/oauth2/v2.0/token`);
  const ask = async (form: Record<string, string>) => {
    const response = await request(tokenUrl(), {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'https://graph.microsoft.com/.default',
        client_assertion_type: JWT_BEARER,
        ...form,
      }).toString(),
    });
    return { status: response.statusCode, body: (await response.body.json()) as Record<string, unknown> };
  };
  const assertion = (
    options: { pem?: string; clientId?: string; audience?: URL; nowMs?: number } = {},
  ): Promise<string> =>
    signClientAssertion(
      certificateAssertionKey(options.pem ?? pem),
      options.clientId ?? app.clientId,
      options.audience ?? tokenUrl(),
      options.nowMs ?? Date.now(),
    );

  beforeAll(async () => {
    const certificate = await selfSignedCertificate('backup app');
    pem = `${certificate.certificatePem}${certificate.privateKeyPem}`;
    sim = await startEntraSimulator({ users: 2, groups: 1 });
    dispatcher = new Agent({ connect: { ca: sim.caCertPem } });
    app = sim.registerApp(['User.Read.All'], certificate.certificatePem);
  });
  afterAll(async () => {
    await dispatcher?.close();
    await sim?.close();
  });

  it('issues a token for an assertion the registered certificate verifies', async () => {
    const answer = await ask({ client_id: app.clientId, client_assertion: await assertion() });
    expect(answer).toMatchObject({ status: 200, body: { token_type: 'Bearer' } });
    const claims = JSON.parse(
      Buffer.from(String(answer.body.access_token).split('.')[1], 'base64url').toString('utf8'),
    ) as { roles: string[]; appid: string };
    expect(claims).toMatchObject({ roles: ['User.Read.All'], appid: app.clientId });
  });

  it('refuses an unknown certificate, another audience, an expired assertion, another client, another type', async () => {
    const stranger = await selfSignedCertificate('stranger');
    const cases: Array<[Record<string, string>, number, number]> = [
      [
        {
          client_id: app.clientId,
          client_assertion: await assertion({ pem: `${stranger.certificatePem}${stranger.privateKeyPem}` }),
        },
        401,
        700027,
      ],
      [
        {
          client_id: app.clientId,
          client_assertion: await assertion({
            audience: new URL('https://login.microsoftonline.com/common/oauth2/v2.0/token'),
          }),
        },
        401,
        700023,
      ],
      [
        { client_id: app.clientId, client_assertion: await assertion({ nowMs: Date.now() - 3_600_000 }) },
        401,
        700024,
      ],
      [{ client_id: 'another-app', client_assertion: await assertion() }, 401, 700021],
      [{ client_assertion_type: 'urn:example:other', client_assertion: await assertion() }, 400, 50027],
      [{ client_id: app.clientId, client_assertion: 'not.a-jwt' }, 400, 50027],
    ];
    for (const [form, status, aadsts] of cases)
      expect({ form, answer: await ask(form) }).toMatchObject({
        form,
        answer: { status, body: { error_codes: [aadsts] } },
      });
  });
});
