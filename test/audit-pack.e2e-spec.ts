import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { RESTORE_SCOPES, runRestore } from './support/restore-helpers.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { zipEntries } from './support/zip-entries.js';

const HAVE_OPENSSL = existsSync('/usr/bin/openssl');
const HAVE_SHA256SUM = existsSync('/usr/bin/sha256sum');
const FRAMEWORKS = ['soc2', 'hipaa', 'pci_dss', 'nist', 'iso27001', 'cis_controls'];

type Json = Record<string, unknown>;
interface ManifestFile {
  path: string;
  sha256: string;
  size: number;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const json = (bytes: Buffer | undefined) => JSON.parse(bytes!.toString('utf8')) as unknown;

/** Writes the pack's files into a fresh folder, as an auditor who unzipped it has them. */
function unzipped(files: Map<string, Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'audit-pack-'));
  for (const [name, bytes] of files) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), bytes);
  }
  return dir;
}

/**
 * docs/export.md: POST /api/export/audit-pack through HTTP, its ZIP read back and checked as an auditor
 * would.
 */
describe('POST /api/export/audit-pack (HTTP, real PostgreSQL, object store, simulator)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let auditor: TestClient;
  let connectionId: string;
  let backups: BackupDto[];
  let drillId: string;
  let restoreId: string;
  let started: Date;

  const bearer = (client: TestClient) => ({ Authorization: `Bearer ${client.token}` });
  const pack = (body: Json, client = auditor) =>
    ctx.http
      .post('/api/export/audit-pack')
      .set(bearer(client))
      .send(body)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
  const period = () => ({
    from: new Date(started.getTime() - 1000).toISOString(),
    to: new Date(Date.now() + 1000).toISOString(),
  });
  const errorOf = (response: { body: unknown }) =>
    JSON.parse((response.body as Buffer).toString('utf8')) as Json;

  beforeAll(async () => {
    started = new Date();
    org = await startTestOrg({ users: 25, groups: 4, apps: 2, seed: 2829 }, RESTORE_SCOPES);
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
    auditor = await ctx.newClient({ role: 'auditor', teamId: admin.teamId });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    backups = [await runBackup(ctx, admin.token, { connectionId })];
    backups.push(await runBackup(ctx, admin.token, { connectionId, forceFullBackup: true }));
    const verified = await ctx.http.post(`/api/backup/${backups[1].id}/verify`).set(bearer(admin));
    drillId = verified.body.drillId as string;
    for (let polls = 0; ; polls += 1) {
      const drill = await ctx.http.get(`/api/restore-drills/${drillId}`).set(bearer(admin));
      if (drill.body.drill.status === 'completed' || polls > 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A group changed in the org after the backup: the restore writes it back (one item).
    const okta = new SimulatorClient(org.sim);
    try {
      const group = org.sim.snapshot().group.find((candidate) => candidate.data.type === 'OKTA_GROUP')!;
      const profile = group.data.profile as Json;
      const changed = await okta.call('PUT', `/api/v1/groups/${group.id}`, {
        json: { profile: { ...profile, description: 'Changed after the backup' } },
      });
      expect(changed.status).toBe(200);
    } finally {
      await okta.close();
    }
    const restore = await runRestore(ctx, admin.token, {
      backupId: backups[0].id,
      mode: 'selective',
      resourceTypes: ['group'],
    });
    restoreId = restore.restore.id as string;
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('streams a ZIP whose signed manifest lists every file with its SHA-256 and size', async () => {
    const response = await pack(period());
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-pack-\d{8}-\d{8}\.zip"$/,
    );
    const files = zipEntries(response.body as Buffer);
    expect([...files.keys()]).toEqual([
      'backups.csv',
      'backups.json',
      'restores.json',
      'restore-drills.json',
      ...FRAMEWORKS.map((framework) => `compliance/${framework}.json`),
      'audit-events.jsonl',
      'notifications.json',
      'README.txt',
      'signing-key.pem',
      'SHA256SUMS',
      'SHA256SUMS.sig',
      'MANIFEST.json',
      'MANIFEST.json.sig',
    ]);

    // The public key, fetched without a token, verifies the detached signature of MANIFEST.json.
    const published = await ctx.http.get('/api/export/signing-key');
    expect(published.status).toBe(200);
    expect(published.headers['content-type']).toMatch(/^application\/x-pem-file/);
    const publicKey = createPublicKey(published.text);
    const manifestBytes = files.get('MANIFEST.json')!;
    expect(verify(null, manifestBytes, publicKey, files.get('MANIFEST.json.sig')!)).toBe(true);
    expect(verify(null, files.get('SHA256SUMS')!, publicKey, files.get('SHA256SUMS.sig')!)).toBe(true);
    const manifest = json(manifestBytes) as Json & { files: ManifestFile[]; signing_key: Json };
    const spki = publicKey.export({ format: 'der', type: 'spki' });
    expect(manifest.signing_key).toMatchObject({ algorithm: 'Ed25519', public_key_sha256: sha256(spki) });
    expect(manifest).toMatchObject({ team_id: admin.teamId, connection_ids: [connectionId] });

    // Every file but the manifest and its signature is listed, with the digest and size of its bytes.
    expect(manifest.files.map((file) => file.path)).toEqual(
      [...files.keys()].filter((name) => !name.startsWith('MANIFEST.json')),
    );
    for (const file of manifest.files) {
      const bytes = files.get(file.path)!;
      expect([file.path, file.sha256, file.size]).toEqual([file.path, sha256(bytes), bytes.length]);
    }

    // One byte changed in the manifest and its signature no longer verifies.
    const altered = Buffer.from(manifestBytes);
    altered[altered.indexOf('"size"') + 2] ^= 0x01;
    expect(verify(null, altered, publicKey, files.get('MANIFEST.json.sig')!)).toBe(false);
  });

  it('verifies with openssl and sha256sum alone, as its README says', async () => {
    if (!HAVE_OPENSSL || !HAVE_SHA256SUM) {
      process.stdout.write('Skipping the openssl check: openssl or sha256sum is not installed.\n');
      return;
    }
    const zip = (await pack(period())).body as Buffer;
    const files = zipEntries(zip);
    const dir = unzipped(files);
    try {
      const published = await ctx.http.get('/api/export/signing-key');
      writeFileSync(join(dir, 'published-key.pem'), published.text);
      const run = (command: string, args: string[]) =>
        execFileSync(command, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      for (const signed of ['MANIFEST.json', 'SHA256SUMS'])
        expect(
          run('openssl', [
            'pkeyutl',
            '-verify',
            '-pubin',
            '-inkey',
            'published-key.pem',
            '-rawin',
            '-in',
            signed,
            '-sigfile',
            `${signed}.sig`,
          ]),
        ).toContain('Signature Verified Successfully');
      const checked = run('sha256sum', ['-c', 'SHA256SUMS']).trim().split('\n');
      expect(checked.length).toBe(files.size - 4);
      expect(checked.every((line) => line.endsWith(': OK'))).toBe(true);
      // The fingerprint the README prints is the published key's.
      const der = execFileSync('openssl', ['pkey', '-pubin', '-in', 'published-key.pem', '-outform', 'DER'], {
        cwd: dir,
      });
      expect(files.get('README.txt')!.toString('utf8')).toContain(sha256(der));
      // A tampered file fails sha256sum's check.
      writeFileSync(join(dir, 'backups.csv'), `${files.get('backups.csv')!.toString('utf8')}x`);
      expect(() => run('sha256sum', ['-c', '--quiet', 'SHA256SUMS'])).toThrow();
      // A file added to the ZIP passes sha256sum -c, and fails step 4 of the README, run as written.
      const readme = files.get('README.txt')!.toString('utf8');
      const step4 = readme
        .slice(readme.indexOf('\n4. '), readme.indexOf('\nA file changed'))
        .split('\n')
        .filter((line) => line.startsWith('     '))
        .map((line) => line.trim())
        .join('\n');
      expect(step4).toContain('unzip -Z1 PACK.zip');
      writeFileSync(join(dir, 'PACK.zip'), zip);
      const listing = () =>
        execFileSync('bash', ['-c', step4], {
          cwd: dir,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      expect(listing()).toBe('');
      writeFileSync(join(dir, 'extra.txt'), 'not in the manifest');
      execFileSync('zip', ['-q', 'PACK.zip', 'extra.txt'], { cwd: dir });
      let differences = '';
      try {
        listing();
      } catch (error) {
        differences = String((error as { stdout?: string }).stdout);
      }
      expect(differences).toContain('> extra.txt');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holds the backups with their manifest digests, restores with items, drills, findings, events and notifications', async () => {
    const files = zipEntries((await pack(period())).body as Buffer);
    const csv = files.get('backups.csv')!.toString('utf8').trim().split('\r\n');
    expect(csv[0].split(',')).toEqual(expect.arrayContaining(['id', 'status', 'manifest_sha256']));
    const digests = csv.slice(1).map((line) => line.split(','));
    const header = csv[0].split(',');
    const column = (name: string) => digests.map((fields) => fields[header.indexOf(name)]);
    // The two backups run here, and the pre-restore backup the restore took.
    expect(column('id')).toEqual(expect.arrayContaining(backups.map((backup) => backup.id)));
    expect(column('manifest_sha256')).toEqual(expect.arrayContaining(backups.map((backup) => backup.sha256)));
    const backupsJson = json(files.get('backups.json')) as BackupDto[];
    expect(backupsJson.map((backup) => backup.id)).toEqual(column('id'));
    expect(backupsJson.find((backup) => backup.id === backups[0].id)).toMatchObject({
      sha256: backups[0].sha256,
    });

    const restores = json(files.get('restores.json')) as Array<Json & { items: Json[] }>;
    expect(restores.map((restore) => restore.id)).toEqual([restoreId]);
    expect(restores[0].items.length).toBeGreaterThan(0);
    expect(restores[0].items[0]).toMatchObject({ resourceType: 'group', action: 'update', outcome: 'ok' });

    const drills = json(files.get('restore-drills.json')) as Json[];
    expect(drills).toEqual([
      expect.objectContaining({
        id: drillId,
        kind: 'verification',
        outcome: 'passed',
        backup_id: backups[1].id,
      }),
      expect.objectContaining({ id: restoreId, kind: 'restore', outcome: 'passed' }),
    ]);

    const soc2 = json(files.get('compliance/soc2.json')) as Json & { connections: Json[] };
    expect(soc2.framework).toBe('soc2');
    // Checked on the latest completed backup of the period: the pre-restore backup, taken last.
    const latest = backupsJson.filter((backup) => backup.status === 'completed').at(-1)!;
    expect(soc2.connections).toEqual([
      expect.objectContaining({ connectionId, backupId: latest.id, score: expect.any(Number) }),
    ]);
    expect((soc2.connections[0].findings as Json[])[0]).toEqual(
      expect.objectContaining({
        control: expect.any(String),
        status: expect.any(String),
        evidence: expect.anything(),
      }),
    );

    const events = files
      .get('audit-events.jsonl')!
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string });
    expect(events.map((event) => event.action)).toEqual(
      expect.arrayContaining(['backup.completed', 'drill.passed', 'restore.completed', 'connection.created']),
    );
    expect(Array.isArray(json(files.get('notifications.json')))).toBe(true);
  });

  it('holds only the period asked for, and only the frameworks the plan allows', async () => {
    const before = { from: '2020-01-01T00:00:00Z', to: '2020-12-31T23:59:59Z' };
    const empty = zipEntries((await pack(before)).body as Buffer);
    expect(empty.get('backups.csv')!.toString('utf8').trim().split('\r\n')).toHaveLength(1);
    expect(json(empty.get('backups.json'))).toEqual([]);
    expect(json(empty.get('restores.json'))).toEqual([]);
    expect((json(empty.get('compliance/soc2.json')) as { connections: Json[] }).connections).toEqual([
      { connectionId, backupId: null, note: expect.any(String) },
    ]);

    const free = await ctx.newClient({ role: 'super_admin' });
    expect(await ctx.app.get(PlanLimitsService).setPlan(free.teamId, 'free')).toBe(true);
    const freePack = zipEntries((await pack(period(), free)).body as Buffer);
    expect([...freePack.keys()].filter((name) => name.startsWith('compliance/'))).toEqual([
      'compliance/soc2.json',
    ]);
    expect(json(freePack.get('backups.json'))).toEqual([]);
  });

  it('records a tampered snapshot as a failed drill and an unreadable compliance entry, and stays whole', async () => {
    const team = await ctx.newClient({ role: 'admin' });
    const id = await createConnection(ctx, team.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    const tampered = await runBackup(ctx, team.token, { connectionId: id });
    const part = join(ctx.dataDir, 'objects', tampered.storage_key, 'parts', 'user.ndjson.gz.enc');
    const bytes = readFileSync(part);
    bytes[Math.floor(bytes.length / 2)] ^= 0x04;
    writeFileSync(part, bytes);
    const verified = await ctx.http.post(`/api/backup/${tampered.id}/verify`).set(bearer(team));
    for (let polls = 0; polls < 200; polls += 1) {
      const drill = await ctx.http.get(`/api/restore-drills/${verified.body.drillId}`).set(bearer(team));
      if (drill.body.drill.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const response = await pack(period(), team);
    expect(response.status).toBe(200);
    const files = zipEntries(response.body as Buffer);
    expect(json(files.get('restore-drills.json'))).toEqual([
      expect.objectContaining({
        id: verified.body.drillId,
        outcome: 'failed',
        error_message: expect.stringMatching(/^The snapshot failed verification/),
      }),
    ]);
    const soc2 = json(files.get('compliance/soc2.json')) as { connections: Json[] };
    expect(soc2.connections).toEqual([
      { connectionId: id, backupId: tampered.id, error: expect.stringMatching(/cannot be read/) },
    ]);
    expect(files.has('MANIFEST.json.sig')).toBe(true);
  });

  it('answers 400 naming a bad field, 404 for another team’s connection, 403 without `export`', async () => {
    const missing = await pack({ to: new Date().toISOString() });
    expect([missing.status, errorOf(missing).error]).toEqual([400, expect.stringMatching(/from/)]);
    const bad = await pack({ from: 'last week', to: new Date().toISOString() });
    expect([bad.status, errorOf(bad).error]).toEqual([400, expect.stringMatching(/from/)]);
    const reversed = await pack({ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' });
    expect([reversed.status, errorOf(reversed).error]).toEqual([400, expect.stringMatching(/to/)]);
    const ids = await pack({ ...period(), connectionIds: ['nope'] });
    expect([ids.status, errorOf(ids).error]).toEqual([400, expect.stringMatching(/connectionIds/)]);

    const stranger = await ctx.newClient({ role: 'admin' });
    const theirs = await createConnection(ctx, stranger.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    const other = await pack({ ...period(), connectionIds: [connectionId, theirs] });
    expect([other.status, errorOf(other).code]).toEqual([404, 'not_found']);

    const operator = await ctx.newClient({ role: 'operator', teamId: admin.teamId });
    const denied = await pack(period(), operator);
    expect([denied.status, errorOf(denied).code]).toEqual([403, 'forbidden']);
    expect((await ctx.http.get('/api/export/signing-key').query({ kid: 'no-such-key' })).status).toBe(404);
  });
});
