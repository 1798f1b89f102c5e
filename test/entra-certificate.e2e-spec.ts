import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { KeyRing } from '@libs/crypto/key-ring.js';
import { SecretCipher } from '@libs/crypto/secret-cipher.js';
import { selfSignedCertificate } from '@libs/simulators/kit/tls/certificates.js';
import { providerDescriptor } from '@libs/providers/registry.js';
import { runBackup } from './support/backup-helpers.js';
import { entraConnectionBody, startTestTenant, type TestTenant } from './support/entra-tenant.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

/**
 * Entra ID connections with a certificate credential (docs/resource-types.md "Microsoft Entra ID": "a
 * certificate (`client_certificate` PEM with its private key): what Microsoft recommends for app-only
 * access"): proven with a token request carrying a client assertion signed by the key (Microsoft identity
 * platform "certificate credentials": PS256, `x5t#S256`, aud the token endpoint), which the Graph simulator
 * verifies against the certificate uploaded to the app registration; sealed at rest like a secret, never
 * returned.
 */
describe('Entra ID certificate credentials (HTTP, real PostgreSQL, Graph simulator over HTTPS)', () => {
  let tenant: TestTenant;
  let ctx: TestApp;
  let admin: TestClient;
  let registered: { certificatePem: string; privateKeyPem: string };
  let app: { clientId: string; clientSecret: string };

  const auth = () => ({ Authorization: `Bearer ${admin.token}` });
  const pemOf = (pair: { certificatePem: string; privateKeyPem: string }) =>
    `${pair.certificatePem}${pair.privateKeyPem}`;
  /** The create body with the certificate in place of the secret. */
  const withCertificate = (pem: string, credentials = app): Record<string, string> => {
    const { client_secret: _secret, ...body } = entraConnectionBody(tenant, credentials);
    return { ...body, client_certificate: pem };
  };
  const create = (body: Record<string, unknown>) =>
    ctx.http.post('/api/connections/create').set(auth()).send(body);
  /** The sealed credentials of a connection row, read from PostgreSQL and opened with the master key. */
  const sealed = async (id: string) => {
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ credentials_enc: string }>(
        'SELECT credentials_enc FROM connections WHERE id = $1',
        [id],
      );
      const cipher = new SecretCipher(KeyRing.parse(ctx.config.MASTER_KEY!));
      return {
        cipherText: rows[0].credentials_enc,
        open: JSON.parse(
          cipher.decryptSecret(rows[0].credentials_enc, `connection:${id}:credentials`),
        ) as Record<string, string>,
      };
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    registered = await selfSignedCertificate('idp-backup');
    tenant = await startTestTenant(
      { users: 6, groups: 2, seed: 3 },
      providerDescriptor('entra_id')!.grants(),
    );
    app = tenant.sim.registerApp(providerDescriptor('entra_id')!.grants(), registered.certificatePem);
    ctx = await startTestApp(tenant.env);
    admin = await ctx.newClient({ role: 'admin' });
  });
  afterAll(async () => {
    await ctx?.close();
    await tenant?.sim.close();
  });

  it('creates a connection proven by a certificate assertion, backs up with it, and never returns the key', async () => {
    const tokens = () => tenant.sim.requestCounts()['POST /{tenant}/oauth2/v2.0/token'] ?? 0;
    const before = tokens();
    const response = await create(withCertificate(pemOf(registered)));
    expect(response.status).toBe(201);
    expect(tokens()).toBeGreaterThan(before);
    const id = response.body.connection.id as string;
    const read = await ctx.http.get(`/api/connections/${id}`).set(auth());
    for (const body of [response.body, read.body]) {
      expect(JSON.stringify(body)).not.toContain('PRIVATE KEY');
      expect(JSON.stringify(body)).not.toContain('BEGIN CERTIFICATE');
    }
    const { cipherText, open } = await sealed(id);
    expect(cipherText).not.toContain('PRIVATE KEY');
    expect(open).toEqual({
      tenant_id: tenant.sim.tenantId,
      client_id: app.clientId,
      client_certificate: pemOf(registered),
    });
    const backup = await runBackup(ctx, admin.token, { connectionId: id });
    expect(backup.status).toBe('completed');
    expect(backup.resource_counts).toEqual(
      Object.fromEntries(
        Object.entries(tenant.sim.snapshot()).map(([type, records]) => [type, records.length]),
      ),
    );
  });

  it('refuses a certificate the app registration does not hold, with the identity platform error', async () => {
    const stranger = await selfSignedCertificate('not uploaded');
    const response = await create(withCertificate(pemOf(stranger)));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/AADSTS700027/);
    expect(JSON.stringify(response.body)).not.toContain('PRIVATE KEY');
  });

  it('refuses a PEM without its key, a secret and a certificate together, and neither, without echoing them', async () => {
    const noKey = await create(withCertificate(registered.certificatePem));
    expect(noKey.status).toBe(400);
    expect(noKey.body.error).toMatch(/client_certificate holds no PEM private key/);
    const both = await create({ ...withCertificate(pemOf(registered)), client_secret: app.clientSecret });
    expect(both.status).toBe(400);
    expect(both.body.error).toBe('client_secret and client_certificate are alternatives: give one of them');
    const { client_certificate: _pem, ...bare } = withCertificate('x');
    const missing = await create(bare);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe(
      'client_secret or client_certificate is required for entra_id connections',
    );
    for (const response of [noKey, both, missing]) {
      expect(JSON.stringify(response.body)).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE/);
      expect(JSON.stringify(response.body)).not.toContain(app.clientSecret);
    }
  });

  it('switches a secret connection to the certificate on PATCH, dropping the secret', async () => {
    const created = await create(entraConnectionBody(tenant, app));
    expect(created.status).toBe(201);
    const id = created.body.connection.id as string;
    const patched = await ctx.http
      .patch(`/api/connections/${id}`)
      .set(auth())
      .send({ client_certificate: pemOf(registered) });
    expect(patched.status).toBe(200);
    expect(JSON.stringify(patched.body)).not.toContain('PRIVATE KEY');
    const { open } = await sealed(id);
    expect(open).not.toHaveProperty('client_secret');
    expect(open.client_certificate).toBe(pemOf(registered));
    expect((await runBackup(ctx, admin.token, { connectionId: id })).status).toBe('completed');
  });
});
