import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { runCli } from '@tools/cli/cli-runner.js';
import { createHttpApp } from '@app/platform/bootstrap/create-app.js';
import { loadConfig, type AppConfig } from '@app/platform/config/app-config.js';
import { SEALED_COLUMNS } from '@app/platform/key-rotation/sealed-columns.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { createConnection, runBackup } from './support/backup-helpers.js';

const oldKey = `old:${randomBytes(32).toString('base64')}`;
const newKey = `new:${randomBytes(32).toString('base64')}`;

/**
 * Master key rotation as an operator does it (docs/operations.md "Rotating the master key"): put a
 * new key first in MASTER_KEY, run `keys:rotate`, drop the old key. Afterwards the service boots,
 * signs tokens, opens the stored Okta credentials and reads the old snapshot under the new key
 * alone. HTTP, real PostgreSQL, the filesystem object store, the Okta simulator over HTTPS.
 */
describe('master key rotation (keys:rotate)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;
  let firstBackupId: string;

  const configWith = (masterKey: string): AppConfig =>
    loadConfig({
      NODE_ENV: 'test',
      BASE_URL: ctx.baseUrl,
      DATABASE_URL: ctx.databaseUrl,
      DATA_DIR: ctx.dataDir,
      MASTER_KEY: masterKey,
      LOG_LEVEL: 'error',
      RATE_LIMITS: 'off',
      ...org.env,
    });

  const rotate = async (masterKey: string) => {
    const out = { stdout: [] as string[], stderr: '' };
    const code = await runCli(['keys:rotate'], configWith(masterKey), {
      stdout: (line) => out.stdout.push(line),
      stderr: (line) => (out.stderr += line),
    });
    return { code, report: out.stdout.length ? JSON.parse(out.stdout[0]) : undefined, note: out.stderr };
  };

  const replica = async (masterKey: string): Promise<INestApplication> => {
    const app = await createHttpApp(configWith(masterKey), ctx.databaseUrl);
    await app.init();
    return app;
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 12, groups: 3, apps: 2, seed: 41 });
    ctx = await startTestApp({ ...org.env, MASTER_KEY: oldKey });
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    const backup = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');
    firstBackupId = backup.id;
    await ctx.app.close(); // the replica stops; its database and objects stay
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('knows every sealed column of the schema', async () => {
    const db = new DataSource({ type: 'postgres', url: ctx.databaseUrl });
    await db.initialize();
    try {
      const columns: Array<{ table_name: string; column_name: string }> = await db.query(
        `SELECT table_name, column_name FROM information_schema.columns
          WHERE table_schema = 'public' AND column_name LIKE '%\\_enc'`,
      );
      expect(columns.map((c) => `${c.table_name}.${c.column_name}`).sort()).toEqual(
        SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`).sort(),
      );
    } finally {
      await db.destroy();
    }
  });

  it('refuses to run without the old key in the ring, naming it, and changes nothing', async () => {
    const run = await rotate(newKey);
    expect(run.code).toBe(1);
    expect(run.note).toMatch(/key id "old"/);
    expect(run.report).toBeUndefined();
  });

  it('re-encrypts every secret and re-wraps every snapshot under the new key, once', async () => {
    const first = await rotate(`${newKey},${oldKey}`);
    expect(first.code).toBe(0);
    expect(first.report).toEqual({
      active_kid: 'new',
      // the connection's credentials, the OAuth signing key, the sign-in root secret
      secrets: { rewritten: 3, unchanged: 0 },
      snapshots: { rewritten: 1, unchanged: 0, missing: 0 },
      under: { new: 4 },
    });
    expect(first.note).toMatch(/other keys can leave MASTER_KEY/);
    const again = await rotate(`${newKey},${oldKey}`);
    expect(again.report).toMatchObject({
      secrets: { rewritten: 0, unchanged: 3 },
      snapshots: { rewritten: 0, unchanged: 1, missing: 0 },
      under: { new: 4 },
    });
  });

  it('then serves under the new key alone: tokens, the stored credentials, the old snapshot', async () => {
    const app = await replica(newKey);
    try {
      const http = request(app.getHttpServer());
      const token = await http
        .post('/oauth/token')
        .auth(admin.clientId, admin.clientSecret)
        .type('form')
        .send({ grant_type: 'client_credentials', resource: ctx.config.API_RESOURCE });
      expect(token.status).toBe(200);
      const bearer = token.body.access_token as string;
      // An incremental backup opens the credentials and the base snapshot.
      const second = await runBackup({ ...ctx, http } as unknown as TestApp, bearer, { connectionId });
      expect(second).toMatchObject({ status: 'completed' });
      const diff = await http
        .get('/api/diff')
        .query({ fromBackupId: firstBackupId, toBackupId: second.id })
        .set('Authorization', `Bearer ${bearer}`);
      expect(diff.status).toBe(200);
      expect(diff.body.summary).toBeDefined();
    } finally {
      await app.close();
    }
  });

  it('refuses a stray argument (exit 2)', async () => {
    const out = await runCli(['keys:rotate', '--all'], configWith(newKey), {
      stdout: () => {},
      stderr: () => {},
    });
    expect(out).toBe(2);
  });
});
