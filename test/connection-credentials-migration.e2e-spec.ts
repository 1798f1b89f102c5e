import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { KeyRing } from '@libs/crypto/key-ring.js';
import { SecretCipher } from '@libs/crypto/secret-cipher.js';
import { migrations } from '@migrations/index.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

/** The migration under test, by its TypeORM name (class name: name then 13-digit timestamp). */
const SEAL = 'SealConnectionCredentials1764900000000';
const timestampOf = (name: string) => Number(/(\d{13})$/.exec(name)![1]);

/**
 * Sealed credentials (docs/architecture.md "Adding a provider"): connections written by the service before
 * credentials were sealed as one blob (`client_id` in the clear, `client_secret_enc` bound to
 * `connection:<id>:client_secret`) are migrated at boot. The database holds real ciphertexts made under the
 * run's master key, and the migrated connection must still reach the simulated org with them.
 */
describe('sealing connection credentials (migration on a database an older service wrote)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  const legacy = { id: randomUUID(), teamId: randomUUID(), userId: randomUUID() };

  beforeAll(async () => {
    org = await startTestOrg({ users: 12, groups: 3, apps: 2, seed: 24 });
    ctx = await startTestApp(org.env, async (databaseUrl, config) => {
      const keyRing = KeyRing.parse(config.MASTER_KEY!);
      const older = migrations(keyRing).filter((m) => timestampOf(m.name) < timestampOf(SEAL));
      const dataSource = new DataSource({ type: 'postgres', url: databaseUrl, migrations: older });
      await dataSource.initialize();
      await dataSource.runMigrations({ transaction: 'each' });
      const sealed = new SecretCipher(keyRing).encryptSecret(
        org.integration.clientSecret,
        `connection:${legacy.id}:client_secret`,
      );
      const insert = (sql: string, values: unknown[]) => dataSource.query(sql, values);
      await insert(`INSERT INTO teams (id, name, plan) VALUES ($1, 'Legacy', 'enterprise')`, [legacy.teamId]);
      await insert(`INSERT INTO users (id, email) VALUES ($1, 'legacy-owner@example.com')`, [legacy.userId]);
      await insert(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'super_admin')`, [
        legacy.teamId,
        legacy.userId,
      ]);
      await insert(
        `INSERT INTO connections (id, team_id, owner_user_id, provider, org_url, org_name, client_id, client_secret_enc)
         VALUES ($1, $2, $3, 'okta', $4, 'Legacy org', $5, $6)`,
        [legacy.id, legacy.teamId, legacy.userId, org.sim.baseUrl, org.integration.clientId, sealed],
      );
      await dataSource.destroy();
    });
    admin = await ctx.newClient({ role: 'admin', teamId: legacy.teamId });
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  const columns = async (id: string = legacy.id) => {
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'connections'`,
      );
      const row = await client.query(
        'SELECT credentials_enc, public_credentials FROM connections WHERE id = $1',
        [id],
      );
      return { names: rows.map((r) => r.column_name), row: row.rows[0] };
    } finally {
      await client.end();
    }
  };

  /** The row holds the client id in the clear and both fields sealed, bound to the row. */
  const expectSealed = (row: { credentials_enc: string; public_credentials: unknown }, id: string) => {
    expect(row.public_credentials).toEqual({ client_id: org.integration.clientId });
    expect(row.credentials_enc).not.toContain(org.integration.clientSecret);
    const cipher = new SecretCipher(KeyRing.parse(ctx.config.MASTER_KEY!));
    expect(JSON.parse(cipher.decryptSecret(row.credentials_enc, `connection:${id}:credentials`))).toEqual({
      client_id: org.integration.clientId,
      client_secret: org.integration.clientSecret,
    });
  };

  it('moves the client id and secret into one sealed blob and drops the old columns', async () => {
    const { names, row } = await columns();
    expectSealed(row, legacy.id);
    expect(names).toEqual(expect.arrayContaining(['credentials_enc', 'public_credentials']));
    expect(names).not.toContain('client_secret_enc');
    expect(names).not.toContain('client_id');
    expect(row.public_credentials).toEqual({ client_id: org.integration.clientId });
    expect(row.credentials_enc).not.toContain(org.integration.clientSecret);
    const keyRing = KeyRing.parse(ctx.config.MASTER_KEY!);
    expect(
      JSON.parse(
        new SecretCipher(keyRing).decryptSecret(row.credentials_enc, `connection:${legacy.id}:credentials`),
      ),
    ).toEqual({ client_id: org.integration.clientId, client_secret: org.integration.clientSecret });
  });

  it('serves the migrated connection as before, secret withheld, and backs it up with its credentials', async () => {
    const response = await ctx.http
      .get(`/api/connections/${legacy.id}`)
      .set('Authorization', `Bearer ${admin.token}`);
    expect(response.status).toBe(200);
    expect(response.body.connection).toMatchObject({
      id: legacy.id,
      provider: 'okta',
      org_url: org.sim.baseUrl,
      client_id: org.integration.clientId,
    });
    expect(JSON.stringify(response.body)).not.toContain(org.integration.clientSecret);
    const backup = await runBackup(ctx, admin.token, { connectionId: legacy.id });
    expect(backup.status).toBe('completed');
    expect(Object.values(backup.resource_counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('seals a connection created after the migration the same way, and a changed secret is proven first', async () => {
    const id = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    expectSealed((await columns(id)).row, id);
    const refused = await ctx.http
      .patch(`/api/connections/${id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ client_secret: 'not-the-secret' });
    expect(refused.status).toBe(400);
    const backup = await runBackup(ctx, admin.token, { connectionId: id });
    expect(backup.status).toBe('completed');
  });
});
