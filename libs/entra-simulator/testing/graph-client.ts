import { Agent, request } from 'undici';

import type { RunningEntraSimulator } from '@libs/entra-simulator/simulator.js';

/** What Graph answered: the status and the JSON body (empty for a 204). */
export interface GraphAnswer {
  status: number;
  body: Record<string, unknown> & { value: Array<Record<string, unknown>> };
}

/**
 * One call to the simulated Graph as a client of the tenant makes it, for specs: an app
 * registered with `roles`, a client credentials token, then `method /v1.0<path>` with `body` as
 * JSON, over HTTPS trusting the simulator's CA.
 */
export async function graphCall(
  sim: RunningEntraSimulator,
  roles: readonly string[],
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<GraphAnswer> {
  const app = sim.registerApp(roles);
  const dispatcher = new Agent({ connect: { ca: sim.caCertPem } });
  try {
    const token = await request(`${sim.baseUrl}/${sim.tenantId}/oauth2/v2.0/token`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'https://graph.microsoft.com/.default',
        client_id: app.clientId,
        client_secret: app.clientSecret,
      }).toString(),
    });
    const { access_token: accessToken } = (await token.body.json()) as { access_token: string };
    const response = await request(`${sim.baseUrl}/v1.0${path}`, {
      method,
      dispatcher,
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    return {
      status: response.statusCode,
      body: text ? (JSON.parse(text) as GraphAnswer['body']) : { value: [] },
    };
  } finally {
    await dispatcher.close();
  }
}
