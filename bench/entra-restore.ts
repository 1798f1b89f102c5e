import pMap from 'p-map';
import { graphClient } from '@libs/simulators/entra/testing/graph-client.js';
import { ENTRA_RESOURCE_TYPES } from '@libs/providers/entra/entra-resource-catalog.js';
import { providerDescriptor } from '@libs/providers/registry.js';
import { round } from './bench-org.js';
import { graphCounters, graphFigures, startBenchTenant } from './bench-tenant.js';
import { runBenchRestore } from './restore-run.js';
import { printFigures } from './request-figures.js';

/**
 * The Entra ID restore bench (docs/restore.md "Microsoft Entra ID"): a generated tenant of `users` is backed
 * up, its users deleted by an admin (into the deleted items; with `purge`, out of them too, so that the
 * restore creates them anew), then a selective restore of `user` and `group_membership` brings them back
 * through the whole pipeline under Graph's published limits (`rateLimits`), its wall time
 * compared with the least those limits allow for its requests (writes: 3,000 per 150 s per app
 * and tenant) and its peak RSS with the service's production flags.
 */
export async function benchEntraRestore(options: {
  users: number;
  rateLimits: 'none' | 'enterprise';
  purge: boolean;
  traceGc: boolean;
  json: boolean;
  log: (line: string) => void;
}): Promise<void> {
  const { users, rateLimits, log } = options;
  const types = ['user', 'group_membership'];
  const bench = await startBenchTenant({
    users,
    rateLimits: 'none',
    log,
    traceGc: options.traceGc,
    // What an app set up for restores holds: a restore of users also writes what hangs off or names them.
    grants: providerDescriptor('entra_id')!.grants(ENTRA_RESOURCE_TYPES),
  });
  const { tenant, service } = bench;
  try {
    const { backupId } = await bench.backup();
    const doomed = tenant.snapshot().user.map((user) => user.id);
    log(`Deleting ${doomed.length} users${options.purge ? ' for good' : ''}...`);
    const admin = await graphClient(tenant, ['User.ReadWrite.All', 'User.DeleteRestore.All']);
    await pMap(
      doomed,
      async (id) => {
        await admin.call('DELETE', `/v1.0/users/${id}`);
        if (options.purge) await admin.call('DELETE', `/v1.0/directory/deletedItems/${id}`);
      },
      { concurrency: 16 },
    );
    await admin.close();

    tenant.setThrottling(rateLimits === 'enterprise');
    const before = graphCounters(tenant);
    service.resetHeapPeak();
    const { view, seconds } = await runBenchRestore(
      bench.api,
      { backupId, mode: 'selective', resourceTypes: types },
      log,
    );
    const { byEndpoint, ...figures } = graphFigures(tenant, before, users, rateLimits, seconds);
    const summary = view.restore.summary;
    printFigures(
      {
        provider: 'entra_id',
        users: doomed.length,
        rate_limits: rateLimits,
        from: options.purge ? 'created anew' : 'deleted items',
        status: view.restore.status,
        users_restored: summary.user?.create ?? 0,
        memberships_written: summary.group_membership?.create ?? 0,
        writes_failed: Object.values(summary).reduce((sum, type) => sum + type.failed, 0),
        failed_by_type: Object.fromEntries(
          Object.entries(summary)
            .filter(([, type]) => type.failed > 0)
            .map(([name, type]) => [name, type.failed]),
        ),
        seconds: round(seconds),
        requests: figures.requests,
        writes: figures.writes,
        status429: figures.status429,
        peak_rss_mb: service.peakRssMb(),
        ...(options.traceGc ? { heap_growth_mb: service.heapGrowthMb() ?? null } : {}),
        lower_bound_seconds: figures.lower_bound_seconds,
        ratio: figures.ratio,
      },
      byEndpoint,
      options.json,
    );
  } finally {
    await bench.close();
  }
}
