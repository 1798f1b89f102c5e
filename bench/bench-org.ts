import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningSimulator, startSimulator } from '@libs/simulators/okta/index.js';
import { OKTA_BACKUP_SCOPES } from '@libs/providers/okta/okta-scopes.js';
import { freePort } from '@app/platform/bootstrap/free-port.js';
import { installApiServiceIntegration } from '@tools/demo/okta-api-service.js';
import { ServiceClient } from '@tools/demo/service-client.js';
import { type ServiceProcess, startServiceProcess } from './service-process.js';

/** Share of each rate-limit bucket the service leaves to the customer (its default). */
export const HEADROOM = 0.2;

/** A generated org, the built service in its own process, and a connection between them. */
export interface BenchOrg {
  org: RunningSimulator;
  service: ServiceProcess;
  api: ServiceClient;
  connectionId: string;
  /** Creates one more connection to the org through the API (its own integration). @returns its id */
  addConnection(name: string): Promise<string>;
  /**
   * Runs a backup through the API and waits for it, logging its progress unless `quiet`.
   * @returns its id and wall seconds
   */
  backup(body?: Record<string, unknown>, quiet?: boolean): Promise<{ backupId: string; seconds: number }>;
  /**
   * Stops the service and starts it again on the same database and store, so that what one phase
   * measures (peak RSS) is not what an earlier phase left behind; `service` and `api` change.
   */
  restartService(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a bench: an org of `users` from the generator (seed 42, groups and apps in proportion),
 * the service on embedded PostgreSQL and a filesystem store in a temporary directory, a team, an
 * admin client and a connection through an API service integration.
 */
export async function startBenchOrg(options: {
  users: number;
  rateLimits: 'none' | 'enterprise';
  log: (line: string) => void;
  cpuProfileDir?: string;
  /** runs the service with `--trace-gc`, for `service.heapGrowthMb()` */
  traceGc?: boolean;
  /** apps of the generated org (default: one per 2,000 users, at least 5) */
  apps?: number;
  /** scopes granted to the connection's integration (default: a backup's) */
  scopes?: readonly string[];
  /** the service's processes (ServiceProcessOptions `roles`, default `all`) */
  roles?: 'all' | 'split';
  /** settings added to the service's environment (benchServiceEnv), e.g. PROVIDER_RATE_LIMIT_IDLE_HEADROOM */
  env?: Record<string, string>;
}): Promise<BenchOrg> {
  const { users, rateLimits, log } = options;
  log(`Generating an org of ${users} users...`);
  const org = await startSimulator({
    users,
    groups: Math.max(10, Math.round(users / 100)),
    apps: options.apps ?? Math.max(5, Math.round(users / 2000)),
    seed: 42,
    rateLimits,
  });
  const { dataDir, env: baseEnv } = await benchServiceEnv(org.caCertPath);
  const env = { ...baseEnv, ...options.env };
  let service = await startServiceProcess(env, options);
  const close = async () => {
    await service.stop();
    await org.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const connect = await benchAdmin(service);
    let api = await connect(service);
    const integration = await installApiServiceIntegration(org, options.scopes ?? OKTA_BACKUP_SCOPES);
    const { connection } = await api.post<{ connection: { id: string } }>('/api/connections/create', {
      org_url: org.baseUrl,
      client_id: integration.clientId,
      client_secret: integration.clientSecret,
    });
    return {
      org,
      get service() {
        return service;
      },
      get api() {
        return api;
      },
      connectionId: connection.id,
      async addConnection(name: string) {
        const added = await installApiServiceIntegration(org, options.scopes ?? OKTA_BACKUP_SCOPES);
        const created = await api.post<{ connection: { id: string } }>('/api/connections/create', {
          org_url: org.baseUrl,
          client_id: added.clientId,
          client_secret: added.clientSecret,
          org_name: name,
        });
        return created.connection.id;
      },
      async backup(body: Record<string, unknown> = {}, quiet = false) {
        const started = performance.now();
        const { backupId } = await api.post<{ backupId: string }>('/api/backup/run', {
          connectionId: connection.id,
          ...body,
        });
        const final = await api.waitForBackup(backupId, (pct, message) =>
          quiet ? undefined : log(`  ${pct.toFixed(0).padStart(3)} % ${message}`),
        );
        if (final.status !== 'completed') throw new Error(`backup ${final.status}: ${final.error_message}`);
        return { backupId, seconds: (performance.now() - started) / 1000 };
      },
      async restartService() {
        await service.stop();
        service = await startServiceProcess(env, options);
        api = await connect(service);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The service's settings for a bench against a simulator whose CA is `caCertPath`: a temporary
 * data directory (remove it when done), embedded PostgreSQL on a free port, a new master key.
 */
export async function benchServiceEnv(
  caCertPath: string,
): Promise<{ dataDir: string; env: Record<string, string> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'idp-backup-bench-'));
  const env = {
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    MASTER_KEY: randomBytes(32).toString('base64'),
    PROVIDER_ALLOWED_HOSTS: '127.0.0.1',
    PROVIDER_CA_FILE: caCertPath,
    PROVIDER_RATE_LIMIT_HEADROOM: String(HEADROOM),
    LOG_LEVEL: 'warn',
    // One client polling backup status several times a second would exceed the API's own
    // per-IP limit (spec Limits); the benches measure the service's work, not that limit.
    RATE_LIMITS: 'off',
  };
  return { dataDir, env };
}

/**
 * Creates a team and an admin API client through the service's CLI.
 * @returns how to sign that client in to a (re)started service
 */
export async function benchAdmin(
  service: ServiceProcess,
): Promise<(service: ServiceProcess) => Promise<ServiceClient>> {
  const team = await service.cli(['team:create', '--name', 'Bench', '--owner-email', 'bench@example.com']);
  const client = await service.cli(['client:create', '--team', team.team_id, '--role', 'admin']);
  return (running) => ServiceClient.connect(running.baseUrl, client.client_id, client.client_secret);
}

/** Two decimals, for printed figures. */
export function round(value: number): number {
  return Number(value.toFixed(2));
}
