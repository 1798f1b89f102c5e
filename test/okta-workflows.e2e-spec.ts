import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import {
  MAX_CONCURRENT_UPLOADS,
  UPLOAD_BUSY_RETRY_SECONDS,
  uploadSlots,
} from '@app/common/request-edge/upload-body.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { exportFolder } from '@libs/simulators/workflows/index.js';
import { parseFlopack } from '@libs/providers/okta-workflows/flopack.js';
import { openSnapshot, runBackup } from './support/backup-helpers.js';
import { runRestore } from './support/restore-helpers.js';
import { OKTA_BACKUP_SCOPES } from '@libs/providers/okta/okta-scopes.js';
import { installApiServiceIntegration } from '@tools/demo/okta-api-service.js';
import { zipEntries } from './support/zip-entries.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import {
  startWorkflowsOrg,
  type TestWorkflowsOrg,
  workflowsConnectionBody,
} from './support/workflows-org.js';

const SCOPES = ['okta.workflows.invoke.manage', 'okta.logs.read'];

interface Change {
  resourceType: string;
  action: string;
  resource: { id: string; name: string | null };
  severity: string;
  rule: string;
  parts?: Array<{ kind: string; key: string; name: string | null; action: string; changes: unknown[] }>;
}

/**
 * Okta Workflows end to end (docs/okta-workflows.md): a connection proven with a private_key_jwt token,
 * backups through the exporter flow of the simulated Workflows host, a flow's change diffed per card.
 */
describe('Okta Workflows backups (HTTP, real PostgreSQL, Okta simulator with its Workflows host over HTTPS)', () => {
  let org: TestWorkflowsOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;
  let first: BackupDto;
  let unchanged: BackupDto;
  let second: BackupDto;

  const auth = (client: TestClient) => ({ Authorization: `Bearer ${client.token}` });
  const create = (body: Record<string, unknown>) =>
    ctx.http.post('/api/connections/create').set(auth(admin)).send(body);

  beforeAll(async () => {
    org = await startWorkflowsOrg({ flows: 6, tables: 2, rows: 3, seed: 33 }, SCOPES);
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
  });
  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('refuses an app without okta.workflows.invoke.manage, naming the scope', async () => {
    const app = org.newApp(['okta.logs.read']);
    const response = await create(workflowsConnectionBody(org, app));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/okta\.workflows\.invoke\.manage/);
    expect(JSON.stringify(response.body)).not.toContain('PRIVATE KEY');
  });

  it('refuses a key the app does not hold (the assertion does not verify)', async () => {
    const other = org.newApp(SCOPES);
    const response = await create(workflowsConnectionBody(org, org.app, other.privateKeyPem));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/invalid_client/);
  });

  it('calls no host outside Okta clouds and the allowed ones (SSRF), and names fields of other kinds', async () => {
    const evil = await create({ ...workflowsConnectionBody(org), org_url: 'https://169.254.169.254' });
    expect(evil.status).toBe(400);
    expect(evil.body.error).toMatch(/not an allowed provider host/);
    const withSecret = await create({ ...workflowsConnectionBody(org), client_secret: 'x' });
    expect(withSecret.status).toBe(400);
    expect(withSecret.body.error).toBe('client_secret is not a field of okta_workflows connections');
    const { flow_alias: _alias, ...noAlias } = workflowsConnectionBody(org);
    const missing = await create(noAlias);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('flow_alias is required for okta_workflows connections');
  });

  it('creates the connection with a private JWK too; the key is never returned', async () => {
    const response = await create(workflowsConnectionBody(org, org.app, JSON.stringify(org.app.privateJwk)));
    expect(response.status).toBe(201);
    expect(response.body.connection).toMatchObject({ provider: 'okta_workflows', org_url: org.sim.baseUrl });
    expect(JSON.stringify(response.body)).not.toContain(String(org.app.privateJwk.d));
  });

  it('creates the connection from a PEM after a token proves the key; the key is never returned', async () => {
    const response = await create(workflowsConnectionBody(org));
    expect(response.status).toBe(201);
    connectionId = response.body.connection.id as string;
    const read = await ctx.http.get(`/api/connections/${connectionId}`).set(auth(admin));
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain('PRIVATE KEY');
    expect(read.body.connection.provider).toBe('okta_workflows');
  });

  it('takes a new key by PATCH only once a token proves it', async () => {
    const patch = (body: Record<string, unknown>) =>
      ctx.http.patch(`/api/connections/${connectionId}`).set(auth(admin)).send(body);
    const wrong = await patch({ private_key: org.newApp(SCOPES).privateKeyPem });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatch(/invalid_client/);
    const rotated = await patch({ private_key: JSON.stringify(org.app.privateJwk) });
    expect(rotated.status).toBe(200);
    expect(JSON.stringify(rotated.body)).not.toContain(String(org.app.privateJwk.d));
  });

  it('backs up through the exporter flow: every flow, table (schema and rows) and connection placeholder', async () => {
    const invocations = org.workflows.invocations();
    first = await runBackup(ctx, admin.token, { connectionId });
    expect(first.status).toBe('completed');
    expect(org.workflows.invocations()).toBe(invocations + 1);
    const { flows, tables, connections, folders } = org.workflows.data;
    expect(first.resource_counts).toEqual({
      workflow_folder: folders.size,
      workflow: flows.size,
      workflow_table: tables.size,
      workflow_connection: connections.size,
    });
    const reader = await openSnapshot(ctx, first.storage_key!);
    const read = async (type: string) => {
      const records = [];
      for await (const record of reader.readPart(type)) records.push(record);
      return records;
    };
    const storedFlows = await read('workflow');
    expect(storedFlows.map((r) => [r.id, r.name]).sort()).toEqual(
      [...flows.values()].map((f) => [f.id, f.name]).sort(),
    );
    for (const record of storedFlows) {
      const flow = flows.get(record.id)!;
      const cards = Object.values(record.data.cards as Record<string, { address: string; name: string }>);
      expect(cards.map((c) => [c.address, c.name])).toEqual(flow.cards.map((c) => [c.address, c.name]));
      // On or off as the System Log's activate events say (the export itself holds no state).
      expect(record.data.active).toBe(flow.active);
    }
    const storedTables = await read('workflow_table');
    for (const record of storedTables) {
      const table = tables.get(record.id)!;
      expect(record.data.columns).toEqual(table.columns);
      expect(record.data.rows).toEqual(table.rows);
    }
    const storedConnections = await read('workflow_connection');
    expect(storedConnections.map((r) => [r.id, r.data.name, r.data.module]).sort()).toEqual(
      [...connections.values()].map((c) => [c.id, c.name, c.module]).sort(),
    );
    const okta = storedConnections.find((r) => r.data.module === 'okta')!;
    expect((okta.data._embedded as { data: unknown }).data).toBeNull();
    const usingOkta = [...flows.values()]
      .filter((f) => f.cards.some((c) => c.configId === okta.id))
      .map((f) => f.id);
    expect((okta.data.flows as Array<{ id: string }>).map((f) => f.id).sort()).toEqual(usingOkta.sort());
  });

  it('skips the export when the System Log has no Workflows change since the last backup, and says so', async () => {
    const invocations = org.workflows.invocations();
    unchanged = await runBackup(ctx, admin.token, { connectionId });
    expect(unchanged.status).toBe('completed');
    expect(org.workflows.invocations()).toBe(invocations);
    expect(unchanged.progress_message).toBe(
      `No Okta Workflows change in the audit log since backup ${first.id}: its snapshot is still current, nothing was exported`,
    );
    expect(unchanged).toMatchObject({
      storage_key: first.storage_key,
      resource_counts: first.resource_counts,
      sha256: first.sha256,
    });
    const diff = await ctx.http
      .get('/api/diff')
      .query({ fromBackupId: first.id, toBackupId: unchanged.id })
      .set(auth(admin));
    expect(diff.status).toBe(200);
    expect(diff.body.changes).toEqual([]);
  });

  it('exports again once a flow is saved, and reports the flow card by card, ignoring export ids; a deprovisioning flow is high', async () => {
    const offboard = [...org.workflows.data.flows.values()].find((f) => f.name === 'Offboard leaver')!;
    const cardIndex = offboard.cards.findIndex((c) => c.name === 'Deactivate User');
    org.workflows.changeCardInput(offboard.id, cardIndex, 'Send Email', true);
    const invocations = org.workflows.invocations();
    second = await runBackup(ctx, admin.token, { connectionId });
    expect(second.status).toBe('completed');
    expect(org.workflows.invocations()).toBe(invocations + 1);
    expect(second.storage_key).not.toBe(first.storage_key);
    const response = await ctx.http
      .post('/api/diff')
      .set(auth(admin))
      .send({ fromBackupId: first.id, toBackupId: second.id });
    expect(response.status).toBe(200);
    const changes = response.body.changes as Change[];
    expect(changes).toEqual([
      expect.objectContaining({
        resourceType: 'workflow',
        action: 'modified',
        resource: expect.objectContaining({ id: offboard.id, name: 'Offboard leaver' }),
        severity: 'high',
        rule: 'workflows-privileged-flow-changed',
        parts: [
          {
            kind: 'card',
            key: `${offboard.cards[cardIndex].address}#1`,
            name: 'Deactivate User',
            action: 'modified',
            changes: expect.arrayContaining([expect.objectContaining({ op: 'replace', value: true })]),
          },
        ],
      }),
    ]);
  });

  it('answers 404 to another team for the connection, its backups, diffs, uploads and restores', async () => {
    const outsider = await ctx.newClient({ role: 'admin' });
    expect((await ctx.http.get(`/api/connections/${connectionId}`).set(auth(outsider))).status).toBe(404);
    expect((await ctx.http.get(`/api/backup/${second.id}`).set(auth(outsider))).status).toBe(404);
    expect((await ctx.http.post('/api/backup/run').set(auth(outsider)).send({ connectionId })).status).toBe(
      404,
    );
    const diff = await ctx.http
      .post('/api/diff')
      .set(auth(outsider))
      .send({ fromBackupId: second.id, toBackupId: second.id });
    expect(diff.status).toBe(404);
    const restore = await ctx.http.get('/api/restore').query({ backupId: second.id }).set(auth(outsider));
    expect(restore.status).toBe(404);
  });

  it("shows the flow's change on its timeline", async () => {
    const offboard = [...org.workflows.data.flows.values()].find((f) => f.name === 'Offboard leaver')!;
    const response = await ctx.http
      .get('/api/resource-timeline')
      .query({ connectionId, resourceType: 'workflow', resourceId: offboard.id })
      .set(auth(admin));
    expect(response.status).toBe(200);
    const events = response.body.events as Array<{ backupId: string; change: string }>;
    expect(events.find((event) => event.backupId === second.id)?.change).toBe('modified');
  });

  it('keeps a snapshot two backups share until neither needs it', async () => {
    expect((await ctx.http.delete(`/api/backup/${first.id}`).set(auth(admin))).status).toBe(200);
    const reader = await openSnapshot(ctx, unchanged.storage_key!);
    expect(reader.types).toContain('workflow');
    let flows = 0;
    for await (const _record of reader.readPart('workflow')) flows += 1;
    expect(flows).toBe(unchanged.resource_counts!.workflow);
  });

  describe('POST /api/connections/{id}/workflows/upload', () => {
    const upload = (
      client: TestClient,
      id: string,
      body: Buffer | string,
      type = 'application/octet-stream',
    ) =>
      ctx.http
        .post(`/api/connections/${id}/workflows/upload`)
        .set(auth(client))
        .set('Content-Type', type)
        .send(body);

    it('turns a .folder exported by hand into a completed backup holding its flows, tables and placeholders', async () => {
      const file = Buffer.from(JSON.stringify(exportFolder(org.workflows.data, Date.now())));
      const response = await upload(admin, connectionId, file);
      expect(response.status).toBe(201);
      const backup = response.body.backup as BackupDto;
      expect(backup.status).toBe('completed');
      const { flows, tables, connections, folders } = org.workflows.data;
      expect(backup.resource_counts).toEqual({
        workflow_folder: folders.size,
        workflow_connection: connections.size,
        workflow_table: tables.size,
        workflow: flows.size,
      });
      const reader = await openSnapshot(ctx, backup.storage_key!);
      const stored = [];
      for await (const record of reader.readPart('workflow')) stored.push(record.id);
      expect(stored.sort()).toEqual([...flows.keys()].sort());
      const listed = await ctx.http.get('/api/backup/list').query({ connectionId }).set(auth(admin));
      expect(listed.body.backups.map((b: BackupDto) => b.id)).toContain(backup.id);
    });

    it('refuses what is not a flopack, naming why, and stores nothing', async () => {
      const before = (await ctx.http.get('/api/backup/list').query({ connectionId }).set(auth(admin))).body
        .total;
      const notJson = await upload(admin, connectionId, Buffer.from('PK\u0003\u0004 zip'));
      expect(notJson.status).toBe(400);
      expect(notJson.body.error).toMatch(/not UTF-8 JSON/);
      const notFlopack = await upload(
        admin,
        connectionId,
        Buffer.from(JSON.stringify({ type: 'folder', data: {} })),
      );
      expect(notFlopack.status).toBe(400);
      expect(notFlopack.body.error).toMatch(/Not an Okta Workflows export/);
      const withSecret = exportFolder(org.workflows.data, Date.now()) as {
        data: { configs: Record<string, { data: unknown }> };
      };
      Object.values(withSecret.data.configs)[0].data = { token: 'xoxb-secret' };
      const leaking = await upload(admin, connectionId, Buffer.from(JSON.stringify(withSecret)));
      expect(leaking.status).toBe(400);
      expect(leaking.body.error).toMatch(/connection data/);
      expect(
        (await ctx.http.get('/api/backup/list').query({ connectionId }).set(auth(admin))).body.total,
      ).toBe(before);
    });

    it('caps the size, takes only octet-stream, and needs run backups on a connection of the team', async () => {
      const big = await upload(admin, connectionId, Buffer.alloc(10 * 1024 * 1024 + 1, 0x20));
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({
        code: 'payload_too_large',
        error: 'Request body too large (at most 10 MB)',
      });
      // Small on the wire, past the cap once inflated: refused while read, with the same 413.
      const bomb = await upload(admin, connectionId, gzipSync(Buffer.alloc(10 * 1024 * 1024 + 1, 0x20))).set(
        'Content-Encoding',
        'gzip',
      );
      expect(bomb.status).toBe(413);
      expect(bomb.body).toMatchObject({
        code: 'payload_too_large',
        details: [{ field: 'body', message: 'larger than 10 MB' }],
      });
      const json = await upload(admin, connectionId, '{"type":"flopack"}', 'text/plain');
      expect(json.status).toBe(415);
      const file = Buffer.from(JSON.stringify(exportFolder(org.workflows.data, Date.now())));
      const viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
      expect((await upload(viewer, connectionId, file)).status).toBe(403);
      const outsider = await ctx.newClient({ role: 'admin' });
      expect((await upload(outsider, connectionId, file)).status).toBe(404);
    });
    it(`reads at most ${MAX_CONCURRENT_UPLOADS} upload bodies at once: one more is a 503 with Retry-After, and slots free when an upload ends`, async () => {
      const file = Buffer.from(JSON.stringify(exportFolder(org.workflows.data, Date.now())));
      const { port } = new URL(ctx.baseUrl);
      // Each held upload declares the whole file, sends a first byte and waits: its slot stays taken.
      const heldAnswers: number[] = [];
      const held = Array.from({ length: MAX_CONCURRENT_UPLOADS }, () => {
        const request = http.request({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `/api/connections/${connectionId}/workflows/upload`,
          headers: {
            ...auth(admin),
            'Content-Type': 'application/octet-stream',
            'Content-Length': String(file.length),
          },
        });
        request.on('error', () => undefined);
        request.on('response', (response) => heldAnswers.push(response.statusCode!));
        request.write(file.subarray(0, 1));
        return request;
      });
      try {
        // The held uploads take their slots once their guards and the service's checks have run.
        for (let tries = 0; uploadSlots.inUse < MAX_CONCURRENT_UPLOADS && tries < 100; tries++)
          await new Promise((resolve) => setTimeout(resolve, 100));
        const busy = await upload(admin, connectionId, file);
        expect({ busy: busy.status, held: heldAnswers }).toEqual({ busy: 503, held: [] });
        expect(busy.body).toMatchObject({ code: 'service_unavailable' });
        expect(busy.headers['retry-after']).toBe(String(UPLOAD_BUSY_RETRY_SECONDS));
      } finally {
        for (const request of held) request.destroy();
      }
      let after = await upload(admin, connectionId, file);
      for (let tries = 0; after.status === 503 && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = await upload(admin, connectionId, file);
      }
      expect(after.status).toBe(201);
    });
  });

  describe('restore = a re-import package', () => {
    it('previews what the package would hold, from the backup alone', async () => {
      const response = await ctx.http
        .get('/api/restore')
        .query({ backupId: second.id, resourceTypes: 'workflow' })
        .set(auth(admin));
      expect(response.status).toBe(200);
      const rows = response.body.preview as Array<{ resourceType: string; create: number; update: number }>;
      expect(rows.find((row) => row.resourceType === 'workflow')).toMatchObject({
        create: org.workflows.data.flows.size,
        update: 0,
      });
      expect(response.body.sourceOrgUrl).toBe(org.sim.baseUrl);
    });

    it('writes nothing to Okta and hands back a valid flopack of exactly the chosen flows and tables, their rows as CSV, and a runbook', async () => {
      const flows = [...org.workflows.data.flows.values()];
      const chosen = [
        flows.find((f) => f.name === 'Offboard leaver')!,
        flows.find((f) => f.name === 'Notify IT')!,
      ];
      const table = [...org.workflows.data.tables.values()][0];
      const invocations = org.workflows.invocations();
      const logBefore = org.sim.requestLog().total;
      const view = await runRestore(ctx, admin.token, {
        backupId: second.id,
        mode: 'selective',
        resourceTypes: ['workflow', 'workflow_table'],
        resourceIds: [...chosen.map((f) => f.id), table.id],
      });
      expect(view.restore.status).toBe('completed');
      expect(org.workflows.invocations()).toBe(invocations);
      expect(org.sim.requestLog().total).toBe(logBefore);
      expect(view.restore.pre_restore_backup_id).toBeNull();
      const link = (view.restore as { package?: { url: string } }).package!;
      const url = new URL(link.url);
      const download = await ctx.http
        .get(url.pathname + url.search)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(download.status).toBe(200);
      expect(download.headers['content-type']).toBe('application/zip');
      const entries = zipEntries(download.body as Buffer);
      const flopack = parseFlopack(JSON.parse(entries.get('restore.folder')!.toString('utf8')));
      expect(Object.keys(flopack.data.flos).sort()).toEqual(chosen.map((f) => f.id).sort());
      expect(Object.keys(flopack.data.tables)).toEqual([table.id]);
      const used = new Set(chosen.flatMap((f) => f.cards.map((c) => c.configId)).filter(Boolean));
      expect(Object.keys(flopack.data.configs).sort()).toEqual([...used].sort());
      for (const config of Object.values(flopack.data.configs)) expect(config.data).toBeNull();
      const csv = entries.get(`tables/${table.name}.csv`)!.toString('utf8');
      expect(csv.split('\r\n')).toHaveLength(table.rows.length + 1);
      expect(csv).toContain(table.rows[0].Login);
      const runbook = entries.get('RUNBOOK.md')!.toString('utf8');
      expect(runbook).toContain('**Okta** (okta): Offboard leaver');
      const [on, off] = runbook.split('## 4.')[1].split('## 5.')[0].split('Off (leave off):');
      for (const flow of chosen) expect(flow.active ? on : off.split('Not known')[0]).toContain(flow.id);
      expect(runbook.split('## 5.')[1]).toContain('Notify IT');
      expect(runbook.split('## 5.')[1]).not.toContain('Offboard leaver');
      const tampered = await ctx.http.get(url.pathname + url.search.replace(/sig=[^&]+/, 'sig=AAAA'));
      expect(tampered.status).toBe(403);
    });
  });

  describe('includeWorkflows on an Okta backup', () => {
    let oktaConnectionId: string;
    const oktaBody = async () => {
      const integration = await installApiServiceIntegration(org.sim, OKTA_BACKUP_SCOPES);
      return {
        org_url: org.sim.baseUrl,
        client_id: integration.clientId,
        client_secret: integration.clientSecret,
        org_name: 'Okta test org',
      };
    };
    const run = (client: TestClient, body: Record<string, unknown>) =>
      ctx.http.post('/api/backup/run').set(auth(client)).send(body);

    it('refuses it on a Workflows connection, and on an Okta one whose team has no Workflows connection to the org', async () => {
      const onWorkflows = await run(admin, { connectionId, includeWorkflows: true });
      expect(onWorkflows.status).toBe(400);
      expect(onWorkflows.body.details).toEqual({ code: 'workflows_not_applicable' });
      const other = await ctx.newClient({ role: 'admin' });
      const created = await ctx.http
        .post('/api/connections/create')
        .set(auth(other))
        .send(await oktaBody());
      expect(created.status).toBe(201);
      const alone = await run(other, { connectionId: created.body.connection.id, includeWorkflows: true });
      expect(alone.status).toBe(400);
      expect(alone.body.details).toEqual({ code: 'no_workflows_connection' });
    });

    it("adds the team's Workflows folder of the same org into the Okta snapshot", async () => {
      const created = await create(await oktaBody());
      expect(created.status).toBe(201);
      oktaConnectionId = created.body.connection.id as string;
      const backup = await runBackup(ctx, admin.token, {
        connectionId: oktaConnectionId,
        includeWorkflows: true,
      });
      expect(backup.status).toBe('completed');
      const { flows, tables, connections, folders } = org.workflows.data;
      expect(backup.resource_counts).toMatchObject({
        workflow_folder: folders.size,
        workflow: flows.size,
        workflow_table: tables.size,
        workflow_connection: connections.size,
        user: org.sim.snapshot().user.length,
      });
      const reader = await openSnapshot(ctx, backup.storage_key!);
      const stored = [];
      for await (const record of reader.readPart('workflow')) stored.push(record.id);
      expect(stored.sort()).toEqual([...flows.keys()].sort());
      const plain = await runBackup(ctx, admin.token, {
        connectionId: oktaConnectionId,
        forceFullBackup: true,
      });
      expect(Object.keys(plain.resource_counts!)).not.toContain('workflow');
    });

    it('diffs the Workflows types of two Okta backups card by card, with the Workflows severities', async () => {
      const first = await runBackup(ctx, admin.token, {
        connectionId: oktaConnectionId,
        includeWorkflows: true,
      });
      const grant = [...org.workflows.data.flows.values()].find((f) => f.name === 'Grant help desk role')!;
      const card = grant.cards.findIndex((c) => c.name === 'Assign Admin Role to User');
      org.workflows.changeCardInput(grant.id, card, 'Role', 'SUPER_ADMIN');
      const next = await runBackup(ctx, admin.token, {
        connectionId: oktaConnectionId,
        includeWorkflows: true,
      });
      const response = await ctx.http
        .post('/api/diff')
        .set(auth(admin))
        .send({ fromBackupId: first.id, toBackupId: next.id });
      expect(response.status).toBe(200);
      expect(response.body.changes).toEqual([
        expect.objectContaining({
          resourceType: 'workflow',
          resource: expect.objectContaining({ id: grant.id }),
          severity: 'high',
          rule: 'workflows-privileged-flow-changed',
          parts: [expect.objectContaining({ name: 'Assign Admin Role to User', action: 'modified' })],
        }),
      ]);
    });
  });
});
