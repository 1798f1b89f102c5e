import { rmSync } from 'node:fs';
import { startEntraSimulator, type RunningEntraSimulator } from '@libs/simulators/entra/index.js';
import { providerDescriptor } from '@libs/providers/registry.js';
import {
  GRAPH_RU_WINDOW_MS,
  GRAPH_WRITE_QUOTA,
  graphResourceUnitsPer10s,
} from '@libs/providers/entra/graph-rate-limits.js';
import type { ServiceClient } from '@tools/demo/service-client.js';
import { benchAdmin, benchServiceEnv, HEADROOM, round } from './bench-org.js';
import { type ServiceProcess, startServiceProcess } from './service-process.js';

/** A generated Entra tenant, the built service in its own process, and a connection between them. */
export interface BenchTenant {
  tenant: RunningEntraSimulator;
  service: ServiceProcess;
  api: ServiceClient;
  connectionId: string;
  /** Runs a full backup through the API and waits for it. @returns its id and wall seconds */
  backup(body?: Record<string, unknown>): Promise<{ backupId: string; seconds: number }>;
  close(): Promise<void>;
}

/**
 * Starts an Entra bench: a tenant of `users` from the generator (seed 42, one group per 100 users,
 * at least 10), Graph's throttling on with `rateLimits: 'enterprise'` (the published limits; the
 * name the Okta bench uses for "the provider's real limits"), the service and an Entra connection.
 */
export async function startBenchTenant(options: {
  users: number;
  rateLimits: 'none' | 'enterprise';
  log: (line: string) => void;
  cpuProfileDir?: string;
  /** the app registration's application permissions; default what a connection asks for (the descriptor's grants) */
  grants?: readonly string[];
  traceGc?: boolean;
}): Promise<BenchTenant> {
  const { users, log } = options;
  log(`Generating an Entra tenant of ${users} users...`);
  const tenant = await startEntraSimulator({
    users,
    groups: Math.max(10, Math.round(users / 100)),
    seed: 42,
    throttling: options.rateLimits === 'enterprise',
  });
  const { dataDir, env } = await benchServiceEnv(tenant.caCertPath);
  const service = await startServiceProcess(env, options);
  const close = async () => {
    await service.stop();
    await tenant.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const api = await (await benchAdmin(service))(service);
    const app = tenant.registerApp(options.grants ?? providerDescriptor('entra_id')!.grants());
    const { connection } = await api.post<{ connection: { id: string } }>('/api/connections/create', {
      provider: 'entra_id',
      org_url: tenant.baseUrl,
      tenant_id: tenant.tenantId,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    return {
      tenant,
      service,
      api,
      connectionId: connection.id,
      async backup(body: Record<string, unknown> = {}) {
        const started = performance.now();
        const { backupId } = await api.post<{ backupId: string }>('/api/backup/run', {
          connectionId: connection.id,
          ...body,
        });
        const final = await api.waitForBackup(backupId, (pct, message) =>
          log(`  ${pct.toFixed(0).padStart(3)} % ${message}`),
        );
        if (final.status !== 'completed') throw new Error(`backup ${final.status}: ${final.error_message}`);
        return { backupId, seconds: (performance.now() - started) / 1000 };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** What a tenant saw of one measured run, and how it compares with Graph's limits. */
export interface GraphFigures {
  /** requests per `METHOD template` during the run */
  byEndpoint: Record<string, number>;
  requests: number;
  status429: number;
  resource_units: number;
  /** requests that count against Graph's write limits (GRAPH_WRITE_QUOTA) */
  writes: number;
  /** the least wall time the limits allow (0 without them), seconds */
  lower_bound_seconds: number;
  /** wall time over the lower bound; null without limits */
  ratio: number | null;
}

/** A read of the tenant's counters, to subtract from a later one (graphFigures). */
export type GraphCounters = {
  counts: Record<string, number>;
  totals: { resourceUnits: number; status429: number };
};

/** The tenant's counters now. */
export function graphCounters(tenant: RunningEntraSimulator): GraphCounters {
  return { counts: tenant.requestCounts(), totals: tenant.throttleTotals() };
}

/** The tenant's requests since `before`, for a run of `seconds` on a tenant of `users`. */
export function graphFigures(
  tenant: RunningEntraSimulator,
  before: GraphCounters,
  users: number,
  rateLimits: 'none' | 'enterprise',
  seconds: number,
): GraphFigures {
  const byEndpoint = Object.fromEntries(
    Object.entries(tenant.requestCounts())
      .map(([endpoint, count]) => [endpoint, count - (before.counts[endpoint] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
  const totals = tenant.throttleTotals();
  const resourceUnits = totals.resourceUnits - before.totals.resourceUnits;
  const count = (matches: (endpoint: string) => boolean) =>
    Object.entries(byEndpoint)
      .filter(([endpoint]) => matches(endpoint))
      .reduce((sum, [, n]) => sum + n, 0);
  const conditionalAccess = count((endpoint) => endpoint.includes('/identity/conditionalAccess/'));
  const writes = count((endpoint) => GRAPH_WRITE_QUOTA.buckets.test(endpoint));
  const lowerBound =
    rateLimits === 'enterprise' ? graphLowerBound(users, resourceUnits, conditionalAccess, writes) : 0;
  return {
    byEndpoint,
    requests: Object.values(byEndpoint).reduce((sum, n) => sum + n, 0),
    status429: totals.status429 - before.totals.status429,
    resource_units: resourceUnits,
    writes,
    lower_bound_seconds: lowerBound,
    ratio: lowerBound > 0 ? round(seconds / lowerBound) : null,
  };
}

/**
 * The least wall time Graph's identity and access limits allow for a run that spent
 * `resourceUnits`, made `conditionalAccessRequests` and `writes` (s): the application+tenant budget
 * for the tenant's size less the headroom kept free, the conditional access paths' 1 request per
 * second, and the write quota less the headroom; the slowest decides. Steady state: the budget's bucket starts full (10 s of units), so a
 * run that fits in it beats the bound.
 */
export function graphLowerBound(
  users: number,
  resourceUnits: number,
  conditionalAccessRequests: number,
  writes = 0,
): number {
  const perSecond = (graphResourceUnitsPer10s(users) * (1 - HEADROOM) * 1000) / GRAPH_RU_WINDOW_MS;
  return round(
    Math.max(
      resourceUnits / perSecond,
      // The first request goes at once, each other one a second after the previous.
      Math.max(0, conditionalAccessRequests - 1),
      writes / ((GRAPH_WRITE_QUOTA.requests * (1 - HEADROOM)) / (GRAPH_WRITE_QUOTA.windowMs / 1000)),
    ),
  );
}
