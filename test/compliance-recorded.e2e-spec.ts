import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runFramework } from '@libs/compliance/compliance-engine.js';
import type { RecordSource } from '@libs/compliance/compliance-types.js';
import { FRAMEWORKS } from '@libs/compliance/frameworks/index.js';
import { recordedOrgNames } from '@libs/simulators/okta/seed/fixtures/fixture-seeder.js';
import { OKTA_CHECKS } from '@libs/providers/okta/compliance/index.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { createConnection, openSnapshot, runBackup } from './support/backup-helpers.js';
import { FIXTURES_DIR, HAVE_FIXTURES, startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

const STATUSES = ['pass', 'fail', 'warning', 'not_applicable', 'manual'];

/** The snapshot's records read whole: what a check would see without `fields`. */
const wholeRecords = (reader: SnapshotReader): RecordSource => ({
  types: reader.types,
  has: (type) => reader.has(type),
  readBatches: (type) => reader.readBatches(type),
});

/** `data`'s members named in `fields`. */
const picked = (data: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(
    fields.filter((field) => Object.hasOwn(data, field)).map((field) => [field, data[field]]),
  );

/** `value` behind proxies that add the dotted path of every member read to `read`. */
function watching<T>(value: T, prefix: string, read: Set<string>): T {
  if (typeof value !== 'object' || value === null) return value;
  return new Proxy(value, {
    get: (target, key) => {
      const path = `${prefix}${String(key)}`;
      read.add(path);
      return watching(Reflect.get(target, key), `${path}.`, read);
    },
  });
}

/**
 * A path read is declared when a declared path takes it whole (`profile` covers `profile.login`)
 * or passes through it (reading `profile` on the way to `profile.login`).
 */
const covered = (path: string, declared: readonly string[]) =>
  declared.some((field) => path === field || path.startsWith(`${field}.`) || field.startsWith(`${path}.`));

async function all(batches: AsyncIterable<readonly ResourceRecord[]>): Promise<ResourceRecord[]> {
  const records: ResourceRecord[] = [];
  for await (const batch of batches) records.push(...batch);
  return records;
}

const orgs = HAVE_FIXTURES ? await recordedOrgNames(FIXTURES_DIR) : [];

/**
 * Compliance checks on backups of the recorded real orgs (docs/compliance.md): every framework answers
 * through the API, and the projected read the engine uses for large parts (only the members a
 * check declares) judges exactly as reading whole records does, on real Okta objects.
 */
for (const fixtureOrg of orgs)
  describe(`compliance on the recorded org ${fixtureOrg}`, () => {
    let org: TestOrg | undefined;
    /** why the org holds nothing to check, when the seeder found no object in its recordings */
    let empty: string | undefined;
    let ctx: TestApp;
    let auditor: TestClient;
    let connectionId: string;
    let backup: BackupDto;
    let reader: SnapshotReader;
    /** what the checks know of the backup besides its records */
    const context = () => ({
      backupId: backup.id,
      collectedAt: backup.started_at,
      previousBackupAt: null,
      lastRestoreAt: null,
    });

    beforeAll(async () => {
      org = await startTestOrg({ fixturesDir: FIXTURES_DIR, fixtureOrg }).catch((error: Error) => {
        // An org whose recordings hold nothing a backup holds (the seeder says so) has nothing to check.
        if (!/yields no object/.test(error.message)) throw error;
        empty = error.message;
        return undefined;
      });
      if (!org) return;
      ctx = await startTestApp(org.env);
      const admin = await ctx.newClient({ role: 'admin' });
      auditor = await ctx.newClient({ role: 'auditor', teamId: admin.teamId });
      connectionId = await createConnection(ctx, admin.token, {
        baseUrl: org.sim.baseUrl,
        ...org.integration,
      });
      backup = await runBackup(ctx, admin.token, { connectionId });
      reader = await openSnapshot(ctx, backup.storage_key);
    });

    afterAll(async () => {
      await ctx?.close();
      await org?.sim.close();
    });

    it('answers every framework from the backup, each finding anchored to it', async () => {
      if (empty) return expect(empty).toMatch(/yields no object/);
      for (const framework of Object.keys(FRAMEWORKS)) {
        const response = await ctx.http
          .post('/api/compliance/check')
          .set('Authorization', `Bearer ${auditor.token}`)
          .send({ connectionId, framework });
        expect(response.status).toBe(200);
        expect(response.body.backupId).toBe(backup.id);
        expect(response.body.score).toBeGreaterThanOrEqual(0);
        expect(response.body.score).toBeLessThanOrEqual(100);
        const findings = response.body.findings as Array<{ status: string; evidence: { backupId: string } }>;
        expect(findings.length).toBeGreaterThan(5);
        for (const finding of findings) {
          expect(STATUSES).toContain(finding.status);
          expect(finding.evidence.backupId).toBe(backup.id);
        }
        // A recorded org holds users and policies: some controls are judged, not all manual.
        expect(findings.filter((f) => f.status === 'pass' || f.status === 'fail').length).toBeGreaterThan(0);
      }
    });

    it('judges as reading whole records: the projected read changes no finding', async () => {
      if (empty) return expect(empty).toMatch(/yields no object/);
      for (const framework of Object.values(FRAMEWORKS)) {
        const projected = await runFramework(framework, OKTA_CHECKS, reader, context());
        const whole = await runFramework(framework, OKTA_CHECKS, wholeRecords(reader), context());
        expect(projected).toEqual(whole);
      }
    });

    it("reads no member a check does not declare in its `fields`, with each framework's thresholds", async () => {
      if (empty) return expect(empty).toMatch(/yields no object/);
      let watched = 0;
      let expected = 0;
      for (const check of OKTA_CHECKS.filter((c) => c.fields !== undefined))
        for (const mapping of Object.values(FRAMEWORKS).flatMap((f) =>
          f.controls.filter((m) => m.check === check.key),
        )) {
          const run = check.start(mapping.params ?? {}, context());
          for (const type of check.reads.filter((t) => reader.has(t))) {
            const declared = check.fields![type];
            if (declared !== undefined)
              expected += reader.manifest.parts.find((part) => part.type === type)!.count;
            for await (const batch of reader.readBatches(type))
              for (const record of batch) {
                if (declared === undefined) {
                  run.onRecord?.(record);
                  continue;
                }
                // Every member asked for, present or not and at any depth, is recorded as it is read.
                const read = new Set<string>();
                run.onRecord?.({ ...record, data: watching(record.data, '', read) });
                expect([`${check.id} ${type}`, [...read].filter((path) => !covered(path, declared))]).toEqual(
                  [`${check.id} ${type}`, []],
                );
                watched += 1;
              }
          }
          run.finish();
        }
      // Orgs without users or assignments have nothing to watch; the others have every such record watched.
      expect(watched).toBe(expected);
    });

    it('projects every recorded record of every part as parsing it whole does', async () => {
      if (empty) return expect(empty).toMatch(/yields no object/);
      let compared = 0;
      for (const type of reader.types) {
        const records = await all(reader.readBatches(type));
        const keys = [...new Set(records.flatMap((record) => Object.keys(record.data)))];
        // Every other member, so that wanted members sit before, between and after skipped ones.
        for (const fields of [keys.filter((_, i) => i % 2 === 0), keys.filter((_, i) => i % 2 === 1)]) {
          const projected = await all(reader.readBatches(type, fields));
          expect(projected).toEqual(
            records.map((record) => ({ ...record, data: picked(record.data, fields) })),
          );
          compared += projected.length;
        }
      }
      expect(compared).toBeGreaterThan(0);
    });
  });

if (orgs.length === 0)
  describe.skip('compliance on recorded orgs (no fixtures)', () => {
    it.todo('runs when ../shared/fixtures/okta/vcr or OKTA_FIXTURES_DIR is present');
  });
