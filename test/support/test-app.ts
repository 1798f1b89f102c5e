import type { INestApplication } from '@nestjs/common';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { loadConfig, type AppConfig } from '@app/platform/config/app-config.js';
import { createHttpApp } from '@app/platform/bootstrap/create-app.js';
import { buildOpenApiDocument } from '@app/platform/bootstrap/openapi.js';
import { freePort } from '@app/platform/bootstrap/free-port.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import type { Role } from '@app/common/permission.js';
import { OpenApiContract } from './openapi-contract.js';
import { captureLog, rememberSecrets } from './log-capture.js';

/** One integration client of a team, with a real access token from the service's token endpoint. */
export interface TestClient {
  teamId: string;
  ownerUserId: string;
  clientId: string;
  clientSecret: string;
  role: Role;
  token: string;
}

/** The real app on an ephemeral port, its own database, data dir and master key. */
export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  baseUrl: string;
  databaseUrl: string;
  dataDir: string;
  /** supertest against the app; every answer is checked against the OpenAPI document (docs/api.md). */
  http: ReturnType<typeof request>;
  /** The OpenAPI document's contract, for answers obtained otherwise than through `http`. */
  contract: OpenApiContract;
  /** A new team (its owner is created too) with a client of `role` and a fresh token. */
  newClient(options?: { role?: Role; teamId?: string }): Promise<TestClient>;
  /** A client_credentials token for the API resource (RFC 8707) from the real token endpoint. */
  token(clientId: string, clientSecret: string, resource?: string): Promise<string>;
  close(): Promise<void>;
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * Starts the app as production would, on a fresh database of the run's PostgreSQL.
 * @param env settings on top of the test defaults (e.g. PROVIDER_ALLOWED_HOSTS, PROVIDER_CA_FILE).
 * @param beforeBoot runs on the empty database before the app boots (and migrates it): to hold
 *   what an older version of the service wrote
 */
export async function startTestApp(
  env: Record<string, string> = {},
  beforeBoot?: (databaseUrl: string, config: AppConfig) => Promise<void>,
): Promise<TestApp> {
  const databaseName = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${databaseName}`));
  const adminUrl = new URL(process.env.TEST_ADMIN_DATABASE_URL!);
  adminUrl.pathname = `/${databaseName}`;
  const databaseUrl = adminUrl.toString();
  // Under the run's scratch dir (test/global-setup.ts) when Jest's global set-up made one.
  const dataDir = mkdtempSync(join(process.env.TEST_DATA_ROOT ?? tmpdir(), 'idp-backup-data-'));

  // The issuer must be known before listening, so the port is chosen first.
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    MASTER_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'error',
    // Every spec sends many requests from 127.0.0.1; test/rate-limit.e2e-spec.ts turns the limits on.
    RATE_LIMITS: 'off',
    // A restore looks at its pre-restore backup every second by default: a round trip restores
    // dozens of times, and each restore would start up to a second after its backup ended.
    BACKUP_WAIT_POLL_SECONDS: '0.25',
    // The Graph simulator enforces no limit unless a test turns its throttling on (none does through
    // the app): the connector's 1 s between conditional access requests made every Entra backup
    // wait 2 s or more (three such lists), every Entra restore too.
    GRAPH_CONDITIONAL_ACCESS_INTERVAL_MS: '0',
    ...env,
  });
  await beforeBoot?.(databaseUrl, config);
  const log = captureLog(config, env);
  const app = await createHttpApp(config, databaseUrl, log?.logger);
  await app.listen(port, '127.0.0.1');
  const baseUrl = config.BASE_URL;
  const contract = new OpenApiContract(buildOpenApiDocument(app, config));
  const http = checkedAgainst(contract, request(baseUrl));

  const token = async (
    clientId: string,
    clientSecret: string,
    resource = config.API_RESOURCE,
  ): Promise<string> => {
    const response = await http
      .post('/oauth/token')
      .auth(clientId, clientSecret)
      .type('form')
      .send({ grant_type: 'client_credentials', resource });
    if (response.status !== 200)
      throw new Error(`token endpoint answered ${response.status}: ${response.text}`);
    rememberSecrets(clientSecret, response.body.access_token as string);
    return response.body.access_token as string;
  };

  return {
    app,
    config,
    baseUrl,
    databaseUrl,
    dataDir,
    http,
    contract,
    token,
    async newClient({ role = 'super_admin', teamId } = {}) {
      const teams = app.get(TeamsService);
      const team = teamId
        ? { teamId, ownerUserId: (await teams.getOwner(teamId)).id }
        : await teams
            .createTeam({
              name: `Team ${randomBytes(3).toString('hex')}`,
              ownerEmail: `owner-${randomBytes(4).toString('hex')}@example.com`,
            })
            .then(({ team: t, owner }: { team: { id: string }; owner: { id: string } }) => ({
              teamId: t.id,
              ownerUserId: owner.id,
            }));
      const client = await teams.createClient({ teamId: team.teamId, role });
      return {
        ...team,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        role,
        token: await token(client.clientId, client.clientSecret),
      };
    },
    async close() {
      await app.close();
      await log?.close();
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/**
 * supertest whose every request also asserts the OpenAPI contract: a status the operation does
 * not document, or a JSON body its schema refuses, fails the request with the reasons.
 */
function checkedAgainst(
  contract: OpenApiContract,
  agent: ReturnType<typeof request>,
): ReturnType<typeof request> {
  return new Proxy(agent, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !HTTP_METHODS.has(property) || typeof value !== 'function')
        return value;
      return (url: string, ...rest: unknown[]) =>
        (value as (url: string, ...rest: unknown[]) => request.Test)
          .call(target, url, ...rest)
          .expect((response) => {
            const problems = contract.problems(property, url, response);
            if (problems.length) throw new Error(`OpenAPI contract:\n${problems.join('\n')}`);
          });
    },
  });
}
