import { Agent, request } from 'undici';
import {
  startEntraSimulator,
  type EntraSimulatorOptions,
  type RunningEntraSimulator,
} from '@libs/simulators/entra/index.js';
import type { TestApp } from './test-app.js';

/** A simulated Entra tenant with an app registration granted `roles`. */
export interface TestTenant {
  sim: RunningEntraSimulator;
  app: { clientId: string; clientSecret: string };
  /** Settings that let the service call the simulator (allowed host, trusted CA). */
  env: Record<string, string>;
}

/** Starts a Graph simulator and registers an app with `roles` consented. */
export async function startTestTenant(
  options: EntraSimulatorOptions,
  roles: readonly string[],
): Promise<TestTenant> {
  const sim = await startEntraSimulator(options);
  return {
    sim,
    app: sim.registerApp(roles),
    env: { PROVIDER_ALLOWED_HOSTS: '127.0.0.1', PROVIDER_CA_FILE: sim.caCertPath },
  };
}

/** The create body of an Entra connection to the simulator (its host standing in for Graph's). */
export function entraConnectionBody(tenant: TestTenant, app = tenant.app): Record<string, string> {
  return {
    provider: 'entra_id',
    org_url: tenant.sim.baseUrl,
    tenant_id: tenant.sim.tenantId,
    client_id: app.clientId,
    client_secret: app.clientSecret,
    org_name: 'Entra test tenant',
  };
}

/**
 * Creates an Entra connection to the tenant through the API (`POST /api/connections/create`) as
 * `token`'s user. @returns its id @throws Error when the API refuses it
 */
export async function createEntraConnection(
  ctx: TestApp,
  token: string,
  tenant: TestTenant,
): Promise<string> {
  const created = await ctx.http
    .post('/api/connections/create')
    .set('Authorization', `Bearer ${token}`)
    .send(entraConnectionBody(tenant));
  if (created.status !== 201)
    throw new Error(`create connection answered ${created.status}: ${created.text}`);
  return created.body.connection.id as string;
}

/**
 * A write through Graph, as the tenant's own admins make one: `PATCH` (or `method`) `/v1.0<path>`
 * with a token of an app granted `role`, trusting the simulator's CA. Returns the status (Graph
 * answers 204 to a PATCH, 201 to a POST that creates).
 */
export async function patchGraph(
  tenant: TestTenant,
  role: string,
  path: string,
  body: unknown,
  method: 'PATCH' | 'POST' = 'PATCH',
): Promise<number> {
  const writer = tenant.sim.registerApp([role]);
  const dispatcher = new Agent({ connect: { ca: tenant.sim.caCertPem } });
  try {
    const token = await request(`${tenant.sim.baseUrl}/${tenant.sim.tenantId}/oauth2/v2.0/token`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'https://graph.microsoft.com/.default',
        client_id: writer.clientId,
        client_secret: writer.clientSecret,
      }).toString(),
    });
    const { access_token: accessToken } = (await token.body.json()) as { access_token: string };
    const response = await request(`${tenant.sim.baseUrl}/v1.0${path}`, {
      method,
      dispatcher,
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await response.body.dump();
    return response.statusCode;
  } finally {
    await dispatcher.close();
  }
}
