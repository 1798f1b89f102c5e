import pMap from 'p-map';
import { parseArgs } from 'node:util';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { oktaRestoreScopes } from '@libs/providers/okta/okta-scopes.js';
import { OKTA_RESOURCE_TYPES } from '@libs/providers/okta/okta-resource-types.js';
import { round, startBenchOrg } from './bench-org.js';
import { runBenchRestore } from './restore-run.js';
import { printFigures, requestFigures } from './request-figures.js';
import { benchEntraRestore } from './entra-restore.js';

/**
 * `npm run bench:restore -- --users N [--provider okta|entra_id] [--purge] [--apps K] [--rate-limits enterprise|none] [--trace-gc] [--json]`: a
 * generated org is backed up, N of its users are deleted (and their memberships and app
 * assignments with them), then a selective restore of `user` brings them back through the whole
 * pipeline (pre-restore backup, plan, writes). The org is set up without limits; the restore runs
 * under `--rate-limits` (default enterprise), and its wall time is compared with the least the
 * limits allow for the requests it made (docs/restore.md: within 1.25x at 10,000 re-created users), and
 * its peak RSS with the service's production flags (docs/restore.md: under 400 MB at 100,000 users).
 * With `--provider entra_id`, a generated Entra tenant instead (entra-restore.ts; `--purge` makes
 * the restore create the users anew rather than bring them back from the deleted items).
 * `--trace-gc` runs the service with V8's `--trace-gc` and adds the heap's growth during the
 * restore (`heap_growth_mb`: the largest heap before a collection, less the heap after the last
 * collection before the restore).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '10000' },
      apps: { type: 'string' },
      'rate-limits': { type: 'string', default: 'enterprise' },
      'trace-gc': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      provider: { type: 'string', default: 'okta' },
      purge: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const users = Number(values.users);
  const apps = values.apps === undefined ? undefined : Number(values.apps);
  const rateLimits = values['rate-limits'];
  if (!Number.isInteger(users) || users < 1) throw new Error('--users must be a positive whole number');
  if (apps !== undefined && !(Number.isInteger(apps) && apps >= 0))
    throw new Error('--apps must be a whole number');
  if (rateLimits !== 'none' && rateLimits !== 'enterprise')
    throw new Error('--rate-limits must be none or enterprise');
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);
  if (values.provider === 'entra_id')
    return benchEntraRestore({
      users,
      rateLimits,
      purge: values.purge,
      traceGc: values['trace-gc'],
      json: values.json,
      log,
    });
  if (values.provider !== 'okta') throw new Error('--provider must be okta or entra_id');

  const bench = await startBenchOrg({
    users,
    apps,
    rateLimits: 'none',
    log,
    traceGc: values['trace-gc'],
    scopes: oktaRestoreScopes(OKTA_RESOURCE_TYPES),
  });
  const { org } = bench;
  try {
    const { backupId } = await bench.backup();
    const state = org.snapshot();
    const admins = new Set(state.admin_role_assignment.map((assignment) => assignment.id.split(':')[0]));
    const doomed = state.user.filter((user) => !admins.has(user.id)).slice(0, users);
    log(`Deleting ${doomed.length} users...`);
    const okta = new SimulatorClient(org);
    await pMap(
      doomed,
      async (user) => {
        for (let i = 0; i < 2; i++) await okta.call('DELETE', `/api/v1/users/${user.id}`);
      },
      { concurrency: 16 },
    );
    await okta.close();

    org.setRateLimits(rateLimits);
    const before = org.requestLog();
    bench.service.resetHeapPeak();
    const { view, seconds } = await runBenchRestore(
      bench.api,
      { backupId, mode: 'selective', resourceTypes: ['user'] },
      log,
    );

    const { byEndpoint, ...figures } = requestFigures(before, org.requestLog(), rateLimits, seconds);
    const summary = view.restore.summary;
    const result = {
      users: doomed.length,
      rate_limits: rateLimits,
      status: view.restore.status,
      users_created: summary.user?.create ?? 0,
      writes_failed: Object.values(summary).reduce((sum, type) => sum + type.failed, 0),
      seconds: round(seconds),
      requests: figures.requests,
      status429: figures.status429,
      peak_rss_mb: bench.service.peakRssMb(),
      ...(values['trace-gc'] ? { heap_growth_mb: bench.service.heapGrowthMb() ?? null } : {}),
      lower_bound_seconds: figures.lower_bound_seconds,
      ratio: figures.ratio,
    };
    printFigures(result, byEndpoint, values.json);
  } finally {
    await bench.close();
  }
}

await main();
