import { type INestApplication, Logger } from '@nestjs/common';
import { parseArgs } from 'node:util';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import { loadConfigWith } from '@app/platform/config/app-config.js';
import { exitWith } from '@app/platform/bootstrap/exit-with.js';
import { resolveDatabase } from '@app/platform/bootstrap/database-url.js';
import { createHttpApp } from '@app/platform/bootstrap/create-app.js';
import { freePort } from '@app/platform/bootstrap/free-port.js';
import { KEY_RING } from '@app/platform/security/key-ring.provider.js';
import { OBJECT_STORE } from '@app/platform/storage/storage.module.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { checkBackup } from './backup-check.js';
import { serveConsoleUntilStopped } from './console-demo.js';
import type { DemoTenant } from './demo-tenant.js';
import { startEntraDemoTenant } from './entra-demo-tenant.js';
import { startOktaDemoTenant } from './okta-demo-tenant.js';
import type { DrillResult } from './drill-result.js';
import { ServiceClient } from './service-client.js';
import { StderrLogger } from '@app/platform/bootstrap/stderr-logger.js';
import { ScubaGearExportError } from '@libs/simulators/entra/seed/scubagear-export.js';

const USAGE = `Usage: npm run demo -- [--provider okta|entra_id] [--fixtures DIR|FILE [--fixture-org NAME]] [--users N --groups N --apps N --seed S] [--rate-limits none|enterprise] [--json] [--console [--console-port P]]`;

/**
 * The main job end to end on the embedded defaults: a tenant of `--provider` (the Okta simulator,
 * or the Graph simulator for `entra_id`, over HTTPS), the service, a team with an integration
 * client, a connection and a backup through the public API, then a check that the snapshot holds
 * every object the tenant has; then a restore drill (Okta: a deleted group and a changed user put
 * back through the API, restore-drill.ts; Entra ID: a deleted security group and a changed user,
 * entra-restore-drill.ts). Exit 0 only if the backup is exact and the drill restored the org or was
 * skipped. With `--console`, the tenant, the service and the admin console then keep running
 * (console-demo.ts) for a person to click through.
 */
async function main(): Promise<number> {
  Logger.overrideLogger(new StderrLogger());
  const { values } = parseArgs({
    options: {
      provider: { type: 'string', default: 'okta' },
      fixtures: { type: 'string' },
      'fixture-org': { type: 'string' },
      users: { type: 'string', default: '200' },
      groups: { type: 'string', default: '20' },
      apps: { type: 'string' },
      seed: { type: 'string', default: '1' },
      'rate-limits': { type: 'string', default: 'none' },
      json: { type: 'boolean', default: false },
      console: { type: 'boolean', default: false },
      'console-port': { type: 'string', default: '5173' },
    },
    strict: true,
  });
  const rateLimits = values['rate-limits'];
  if (rateLimits !== 'none' && rateLimits !== 'enterprise')
    throw new UsageError('--rate-limits must be none or enterprise');
  if (values.provider !== 'okta' && values.provider !== 'entra_id')
    throw new UsageError('--provider must be okta or entra_id');
  if (
    values.provider === 'entra_id' &&
    (values.apps !== undefined || values['fixture-org'] !== undefined || rateLimits !== 'none')
  )
    throw new UsageError(
      '--apps, --fixture-org and --rate-limits are Okta options (--fixtures names a ScubaGear export for entra_id)',
    );
  const say = values.json ? () => {} : (line: string) => process.stdout.write(`${line}\n`);
  const sizes = {
    users: positive(values.users, '--users'),
    groups: positive(values.groups, '--groups'),
    seed: positive(values.seed, '--seed'),
  };

  // Everything started is closed in reverse order, whatever fails: a failed start must not
  // leave the simulator's server holding the process open.
  const started: Array<() => Promise<unknown>> = [];
  try {
    const org =
      values.provider === 'entra_id'
        ? await startEntraDemoTenant({ ...sizes, fixtures: values.fixtures })
        : await startOktaDemoTenant({
            ...sizes,
            apps: positive(values.apps ?? '8', '--apps'),
            fixtures: values.fixtures,
            fixtureOrg: values['fixture-org'],
            rateLimits,
          });
    started.push(() => org.close());
    say(`${org.label} at ${org.baseUrl}${org.seededFrom}`);

    const port = await freePort();
    const consolePort = positive(values['console-port'], '--console-port');
    // The console calls the API from its own origin under the same host name (docs/console.md).
    const host = values.console ? 'localhost' : '127.0.0.1';
    const config = loadConfigWith({
      PORT: String(port),
      BASE_URL: `http://${host}:${port}`,
      ...(values.console ? { CONSOLE_ORIGINS: `http://localhost:${consolePort}` } : {}),
      PROVIDER_ALLOWED_HOSTS: '127.0.0.1',
      PROVIDER_CA_FILE: org.caCertPath,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'pretty', // a person reads the demo, even where NODE_ENV is production
    });
    const database = await resolveDatabase(config);
    started.push(() => database.stop());
    const app = await createHttpApp(config, database.url);
    started.push(() => app.close());
    await app.listen(port, '127.0.0.1');
    say(`Service at ${config.BASE_URL} (data in ${config.DATA_DIR})`);
    const code = await demonstrate(org, app, config.BASE_URL, values.json, say);
    if (values.console)
      await serveConsoleUntilStopped({
        port: consolePort,
        apiUrl: config.BASE_URL,
        ownerEmail: DEMO_OWNER,
        say,
      });
    return code;
  } finally {
    for (const close of started.reverse()) await close();
  }
}

/** The demo team's owner: the address to sign in to the console with. */
const DEMO_OWNER = 'demo-owner@example.com';

/** The demo proper, on a running tenant and service. @returns the process exit code */
async function demonstrate(
  org: DemoTenant,
  app: INestApplication,
  baseUrl: string,
  json: boolean,
  say: (line: string) => void,
): Promise<number> {
  const { team } = await app.get(TeamsService).createTeam({ name: 'Demo team', ownerEmail: DEMO_OWNER });
  const client = await app.get(TeamsService).createClient({ teamId: team.id, role: 'admin', name: 'demo' });
  const api = await ServiceClient.connect(baseUrl, client.clientId, client.clientSecret);
  const { connection } = await api.post<{ connection: { id: string } }>('/api/connections/create', {
    ...(await org.connectionBody()),
    org_name: org.orgName,
  });
  say(`Connection ${connection.id} created; backing up...`);

  const started = Date.now();
  const { backupId } = await api.post<{ backupId: string }>('/api/backup/run', {
    connectionId: connection.id,
  });
  const status = await api.waitForBackup(backupId, (pct, message) =>
    say(`  ${pct.toFixed(0).padStart(3)} % ${message}`),
  );
  const seconds = (Date.now() - started) / 1000;
  const { backup } = await api.get<{ backup: BackupDto }>(`/api/backup/${backupId}`);

  const reader =
    backup.status === 'completed'
      ? await SnapshotReader.open({
          store: app.get<ObjectStore>(OBJECT_STORE),
          prefix: backup.storage_key,
          keyRing: app.get<KeyRing>(KEY_RING),
        })
      : null;
  const check = reader
    ? await checkBackup(org.snapshot(), (type) => reader.readPart(type), backup.resource_types)
    : { exact: false, byType: {} };

  const drill = check.exact ? await org.drill(api, backup.id, say) : null;
  const summary = {
    status: backup.status,
    backup_id: backup.id,
    resource_counts: backup.resource_counts,
    size: backup.size,
    seconds: Number(seconds.toFixed(2)),
    requests: backup.requests,
    exact: check.exact,
    ...(status.error_message ? { error_message: status.error_message } : {}),
    restore: drill,
  };
  if (json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else printSummary(summary, check.byType);
  const drilled =
    drill !== null && (drill.status === 'skipped' || (drill.status === 'completed' && drill.restored));
  return backup.status === 'completed' && check.exact && drilled ? 0 : 1;
}

function printSummary(
  summary: {
    status: string;
    backup_id: string;
    resource_counts: Record<string, number>;
    size: number;
    seconds: number;
    requests: number;
    exact: boolean;
    error_message?: string;
    restore: DrillResult | null;
  },
  byType: Record<
    string,
    { expected: number; stored: number; missing: number; extra: number; changed: number }
  >,
): void {
  // The widest type name sets the column (Entra's run to 48 characters).
  const width = Math.max(34, ...Object.keys(byType).map((type) => type.length + 2));
  const lines = [
    '',
    `Backup ${summary.backup_id}: ${summary.status}${summary.error_message ? ` (${summary.error_message})` : ''}`,
    '',
    `  ${'resource type'.padEnd(width)}${'stored'.padStart(8)}${'in org'.padStart(8)}`,
    ...Object.entries(byType).map(
      ([type, t]) =>
        `  ${type.padEnd(width)}${String(t.stored).padStart(8)}${String(t.expected).padStart(8)}${t.missing || t.extra || t.changed ? `  missing ${t.missing}, extra ${t.extra}, changed ${t.changed}` : ''}`,
    ),
    '',
    `  bytes stored (encrypted)  ${summary.size}`,
    `  seconds                   ${summary.seconds}`,
    `  requests to the org       ${summary.requests}`,
    `  holds every org object    ${summary.exact ? 'yes' : 'NO'}`,
    '',
    ...(summary.restore
      ? [
          `Restore drill: ${summary.restore.status} in ${summary.restore.seconds} s (${summary.restore.writes.create} created, ${summary.restore.writes.update} updated, ${summary.restore.writes.failed} failed)`,
          `  ${drillObjects(summary.restore)} back as backed up: ${summary.restore.restored ? 'yes' : 'NO'}`,
          ...(summary.restore.reason ? [`  ${summary.restore.reason}`] : []),
          '',
        ]
      : []),
  ];
  process.stdout.write(lines.join('\n'));
}

/** What the drill damaged, in words: `deleted group "Sales" and changed user ann@example.com`. */
function drillObjects(drill: DrillResult): string {
  return [
    drill.deleted && `deleted ${drill.deleted.type} "${drill.deleted.name ?? drill.deleted.id}"`,
    drill.changed_user && `changed user ${drill.changed_user.login ?? drill.changed_user.id}`,
  ]
    .filter(Boolean)
    .join(' and ');
}

class UsageError extends Error {}

function positive(value: string | undefined, flag: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new UsageError(`${flag} must be a whole number`);
  return number;
}

let code: number;
try {
  code = await main();
} catch (error) {
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    code = 2;
  } else if (error instanceof ScubaGearExportError) {
    // The file given to --fixtures is the user's: say what is wrong with it, not where we were.
    process.stderr.write(`${error.message}\n`);
    code = 2;
  } else {
    process.stderr.write(
      `Demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    code = 1;
  }
}
exitWith(code);
