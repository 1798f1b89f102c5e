import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { KeyRing } from '@libs/crypto/key-ring.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { ReportExpiryJob } from '@app/export/report-expiry.job.js';
import { reportObjectKey, ReportUrlSigner } from '@app/common/downloads/report-url.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { CHROMIUM, describeWithTools } from './support/tools.js';

/** The text of a PDF, as poppler's pdftotext reads it (layout kept, so table rows stay on one line). */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'report-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', join(dir, 'r.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The path and query of a signed URL, to call it on the test server. */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** docs/export.md: PDF reports through HTTP, read back with pdftotext; the signed URL's rules. */
describeWithTools('chromium', 'pdftotext')('POST /api/export/report (real Chromium, pdftotext)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let viewer: TestClient;
  let connectionId: string;
  let backup: BackupDto;

  const report = (body: Record<string, unknown>, client = admin) =>
    ctx.http.post('/api/export/report').set('Authorization', `Bearer ${client.token}`).send(body);
  const download = async (url: string) => {
    const response = await ctx.http
      .get(pathOf(url))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    return response;
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 30, groups: 4, apps: 3, seed: 28 });
    ctx = await startTestApp({ ...org.env, CHROMIUM_PATH: CHROMIUM });
    admin = await ctx.newClient({ role: 'admin' });
    viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    backup = await runBackup(ctx, admin.token, { connectionId });
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('renders a backup report whose download is a PDF holding the backup’s figures', async () => {
    const created = await report({ type: 'backup', backupId: backup.id });
    expect(created.status).toBe(200);
    expect(Date.parse(created.body.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    const response = await download(created.body.url);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="report-[0-9a-f-]+\.pdf"$/,
    );
    const text = pdfText(response.body as Buffer);
    const total = Object.values(backup.resource_counts).reduce((sum, count) => sum + count, 0);
    expect(text).toContain('Backup report');
    expect(text).toContain(backup.id);
    expect(text).toContain(backup.sha256!);
    expect(text).toContain(total.toLocaleString('en-US'));
    expect(text).toMatch(new RegExp(`user\\s+${backup.resource_counts.user}\\b`));
  });

  it('renders a compliance report with the score the check answers, and an activity report of the trail', async () => {
    const check = await ctx.http
      .post('/api/compliance/check')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ connectionId, framework: 'pci_dss' });
    const compliance = await report({ type: 'compliance', framework: 'pci_dss', connectionId });
    expect(compliance.status).toBe(200);
    const complianceText = pdfText((await download(compliance.body.url)).body as Buffer);
    expect(complianceText).toContain('Compliance report: PCI DSS');
    expect(complianceText).toContain(`${check.body.score} / 100`);
    expect(complianceText).toContain('8.3.6');

    const activity = await report({
      type: 'activity',
      from: new Date(Date.now() - 3_600_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(activity.status).toBe(200);
    const activityText = pdfText((await download(activity.body.url)).body as Buffer);
    expect(activityText).toContain('Activity report');
    expect(activityText).toContain('connection.created');
    expect(activityText).toContain('backup.completed');
  });

  it('refuses an altered, expired or other report’s signature with 403, and needs no bearer token', async () => {
    const first = (await report({ type: 'backup', backupId: backup.id })).body.url as string;
    const second = (await report({ type: 'backup', backupId: backup.id })).body.url as string;
    const altered = new URL(first);
    altered.searchParams.set('expires', String(Number(altered.searchParams.get('expires')) + 60));
    const otherObject = new URL(second);
    otherObject.search = new URL(first).search;
    const reportId = new URL(first).pathname.split('/').pop()!;
    const signer = new ReportUrlSigner(KeyRing.parse(ctx.config.MASTER_KEY!), ctx.baseUrl, 900);
    const expired = signer.sign(admin.teamId, reportId, new Date(Date.now() - 3_600_000)).url;
    for (const url of [altered.toString(), otherObject.toString(), expired]) {
      const response = await ctx.http.get(pathOf(url));
      expect([url, response.status, response.body.code]).toEqual([url, 403, 'forbidden']);
    }
    expect((await ctx.http.get(pathOf(first))).status).toBe(200);
  });

  it('keeps a report until its URL expires, then the report-expiry job removes its object', async () => {
    const created = await report({ type: 'backup', backupId: backup.id });
    const reportId = new URL(created.body.url as string).pathname.split('/').pop()!;
    const object = join(ctx.dataDir, 'objects', reportObjectKey(admin.teamId, reportId));
    const expiry = ctx.app.get(ReportExpiryJob);
    const waitFor = async (gone: boolean) => {
      for (const deadline = Date.now() + 15_000; existsSync(object) === gone;) {
        if (Date.now() > deadline) throw new Error(`report object still ${gone ? 'there' : 'missing'}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    expect(existsSync(object)).toBe(true);
    // Judged by a time before the expiry, nothing goes; the download still works.
    const before = new Date(Date.parse(created.body.expiresAt) - 60_000);
    expect(await expiry.enqueue(before)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(existsSync(object)).toBe(true);
    expect((await download(created.body.url)).status).toBe(200);
    // Judged by a time after it, the object is removed.
    await expiry.enqueue(new Date(Date.parse(created.body.expiresAt) + 3_600_000));
    await waitFor(true);
    expect((await ctx.http.get(pathOf(created.body.url))).status).toBe(404);
  });

  it('answers 400 naming a missing field, 404 for another team’s backup, 403 without `export`', async () => {
    const missing = await report({ type: 'backup' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/backupId/);
    expect((await report({ type: 'compliance' })).body.error).toMatch(/framework/);
    expect((await report({ type: 'activity', from: 'yesterday' })).body.error).toMatch(/from/);
    expect((await report({ type: 'pdf' })).status).toBe(400);
    const stranger = await ctx.newClient({ role: 'admin' });
    expect((await report({ type: 'backup', backupId: backup.id }, stranger)).status).toBe(404);
    expect((await report({ type: 'backup', backupId: backup.id }, viewer)).status).toBe(403);
  });

  it('answers 503 report_unavailable, never a hang, when Chromium is not installed', async () => {
    const other = await startTestApp({ ...org.env, CHROMIUM_PATH: '/nonexistent/chromium' });
    try {
      const client = await other.newClient({ role: 'admin' });
      const id = await createConnection(other, client.token, {
        baseUrl: org.sim.baseUrl,
        ...org.integration,
      });
      const done = await runBackup(other, client.token, { connectionId: id });
      const response = await other.http
        .post('/api/export/report')
        .set('Authorization', `Bearer ${client.token}`)
        .send({ type: 'backup', backupId: done.id });
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({ code: 'report_unavailable' });
      expect(response.body.error).toMatch(/CHROMIUM_PATH/);
    } finally {
      await other.close();
    }
  });
});
