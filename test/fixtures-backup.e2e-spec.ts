import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { FIXTURES_DIR, HAVE_FIXTURES, startTestOrg, type TestOrg } from './support/okta-org.js';
import { createConnection, openSnapshot, runBackup } from './support/backup-helpers.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';

if (!HAVE_FIXTURES) {
  process.stdout.write(
    `Skipping the recorded-fixtures backup: ${FIXTURES_DIR} is absent (set OKTA_FIXTURES_DIR).\n`,
  );
}

(HAVE_FIXTURES ? describe : describe.skip)('backup of an org seeded from recorded real Okta objects', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let backup: BackupDto;

  beforeAll(async () => {
    org = await startTestOrg({ fixturesDir: FIXTURES_DIR });
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'operator' });
    const owner = await ctx.newClient({ role: 'admin', teamId: admin.teamId });
    const connectionId = await createConnection(ctx, owner.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    backup = await runBackup(ctx, admin.token, { connectionId });
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('completes and holds every recorded object byte-for-byte in data', async () => {
    expect(backup.status).toBe('completed');
    const reader = await openSnapshot(ctx, backup.storage_key);
    const expected = org.sim.snapshot();
    let total = 0;
    for (const [type, objects] of Object.entries(expected)) {
      const stored = new Map<string, string>();
      for await (const record of reader.readPart(type)) stored.set(record.id, JSON.stringify(record.data));
      expect([type, stored.size]).toEqual([type, objects.length]);
      for (const object of objects) expect(stored.get(object.id)).toBe(JSON.stringify(object.data));
      total += objects.length;
    }
    expect(total).toBeGreaterThan(50);
    expect(backup.resource_counts.user).toBeGreaterThan(0);
    expect(backup.resource_counts.policy).toBeGreaterThan(0);
  });
});
