import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSimulator } from '@libs/okta-simulator/index.js';
import { OKTA_BACKUP_SCOPES } from '@libs/providers/okta/okta-scopes.js';
import { freePort } from '../src/bootstrap/free-port.js';
import { installApiServiceIntegration } from '../src/demo/okta-api-service.js';
import { ServiceClient } from '../src/demo/service-client.js';
import { startServiceProcess } from './service-process.js';
import { rateLimitLowerBound } from './rate-limit-bound.js';

const HEADROOM = 0.2;

/**
 * `npm run bench:backup -- --users N [--rate-limits enterprise|none] [--json] [--cpu-prof DIR]`: one full backup of
 * a generated org through the whole pipeline (service process, embedded PostgreSQL, filesystem
 * store, simulator over HTTPS), with the figures issue #3 sets targets for.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '10000' },
      'rate-limits': { type: 'string', default: 'none' },
      json: { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
    },
    strict: true,
  });
  const users = Number(values.users);
  const rateLimits = values['rate-limits'];
  if (!Number.isInteger(users) || users < 1) throw new Error('--users must be a positive whole number');
  if (rateLimits !== 'none' && rateLimits !== 'enterprise')
    throw new Error('--rate-limits must be none or enterprise');
  const log = values.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);

  log(`Generating an org of ${users} users...`);
  const org = await startSimulator({
    users,
    groups: Math.max(10, Math.round(users / 100)),
    apps: Math.max(5, Math.round(users / 2000)),
    seed: 42,
    rateLimits,
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'idp-backup-bench-'));
  const service = await startServiceProcess(
    {
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      MASTER_KEY: randomBytes(32).toString('base64'),
      PROVIDER_ALLOWED_HOSTS: '127.0.0.1',
      PROVIDER_CA_FILE: org.caCertPath,
      OKTA_RATE_LIMIT_HEADROOM: String(HEADROOM),
      LOG_LEVEL: 'warn',
    },
    values['cpu-prof'],
  );
  try {
    const team = await service.cli(['team:create', '--name', 'Bench', '--owner-email', 'bench@example.com']);
    const client = await service.cli(['client:create', '--team', team.team_id, '--role', 'admin']);
    const api = await ServiceClient.connect(service.baseUrl, client.client_id, client.client_secret);
    const integration = await installApiServiceIntegration(org, OKTA_BACKUP_SCOPES);
    const { connection } = await api.post<{ connection: { id: string } }>('/api/connections/create', {
      org_url: org.baseUrl,
      client_id: integration.clientId,
      client_secret: integration.clientSecret,
    });

    const before = org.requestLog();
    const started = performance.now();
    const { backupId } = await api.post<{ backupId: string }>('/api/backup/run', {
      connectionId: connection.id,
    });
    const final = await api.waitForBackup(backupId, (pct, message) =>
      log(`  ${pct.toFixed(0).padStart(3)} % ${message}`),
    );
    const seconds = (performance.now() - started) / 1000;
    if (final.status !== 'completed') throw new Error(`backup ${final.status}: ${final.error_message}`);

    const after = org.requestLog();
    const byEndpoint = Object.fromEntries(
      Object.entries(after.byEndpoint)
        .map(([endpoint, count]) => [endpoint, count - (before.byEndpoint[endpoint] ?? 0)] as const)
        .filter(([, count]) => count > 0),
    );
    const requests = Object.values(byEndpoint).reduce((sum, count) => sum + count, 0);
    const lowerBound = rateLimits === 'enterprise' ? rateLimitLowerBound(byEndpoint, HEADROOM) : 0;
    const result = {
      users,
      rate_limits: rateLimits,
      seconds: round(seconds),
      users_per_second: Math.round(users / seconds),
      requests,
      status429: after.status429 - before.status429,
      peak_rss_mb: service.peakRssMb(),
      lower_bound_seconds: round(lowerBound),
      ratio: lowerBound > 0 ? round(seconds / lowerBound) : null,
    };
    if (values.json) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } else {
      process.stdout.write(`\nrequests by endpoint:\n`);
      for (const [endpoint, count] of Object.entries(byEndpoint).sort((a, b) => b[1] - a[1])) {
        process.stdout.write(`  ${String(count).padStart(7)}  ${endpoint}\n`);
      }
      process.stdout.write(
        `\n${Object.entries(result)
          .map(([key, value]) => `${key.padEnd(20)} ${value}`)
          .join('\n')}\n`,
      );
    }
  } finally {
    await service.stop();
    await org.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function round(value: number): number {
  return Number(value.toFixed(2));
}

await main();
