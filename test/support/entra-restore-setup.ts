import type { EntraSimulatorOptions } from '@libs/simulators/entra/index.js';
import { type GraphTestClient, graphClient } from '@libs/simulators/entra/testing/graph-client.js';
import { ENTRA_RESOURCE_TYPES } from '@libs/providers/entra/entra-resource-catalog.js';
import { providerDescriptor } from '@libs/providers/registry.js';
import { createEntraConnection, startTestTenant, type TestTenant } from './entra-tenant.js';
import { startTestApp, type TestApp, type TestClient } from './test-app.js';

type Json = Record<string, unknown>;

/** What an Entra restore e2e test stands on. */
export interface EntraRestoreSetup {
  /** the simulated tenant, its connection app granted every type's restore permissions */
  tenant: TestTenant;
  ctx: TestApp;
  /** a team admin of the app */
  admin: TestClient;
  connectionId: string;
  /** the tenant's own admin tool, an app granted `adminRoles` */
  graph: GraphTestClient;
  /**
   * `method /v1.0<path>` as the tenant's admin.
   * @throws Error with Graph's answer for a status of 300 or more
   */
  call(method: string, path: string, body?: unknown): Promise<Json>;
  close(): Promise<void>;
}

/**
 * Starts a simulated tenant (`options`), the app on it, a team admin and an Entra connection,
 * and a Graph client for the tenant's own admins (`adminRoles`); `env` adds settings of the app.
 */
export async function startEntraRestoreSetup(
  options: EntraSimulatorOptions,
  adminRoles: readonly string[],
  env: Record<string, string> = {},
): Promise<EntraRestoreSetup> {
  const tenant = await startTestTenant(options, providerDescriptor('entra_id')!.grants(ENTRA_RESOURCE_TYPES));
  const graph = await graphClient(tenant.sim, adminRoles);
  const ctx = await startTestApp({ ...tenant.env, ...env });
  const admin = await ctx.newClient({ role: 'admin' });
  const connectionId = await createEntraConnection(ctx, admin.token, tenant);
  return {
    tenant,
    ctx,
    admin,
    connectionId,
    graph,
    async call(method, path, body) {
      const answer = await graph.call(method, `/v1.0${path}`, body);
      if (answer.status >= 300)
        throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body as Json;
    },
    async close() {
      await graph.close();
      await ctx.close();
      await tenant.sim.close();
    },
  };
}
