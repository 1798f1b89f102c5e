import {
  startEntraSimulator,
  type EntraSimulatorOptions,
  type RunningEntraSimulator,
} from '@libs/entra-simulator/index.js';

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
