import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fastJsonPatch from 'fast-json-patch';
import { writeFileSync } from 'node:fs';
import { SimulatorClient } from '@libs/okta-simulator/testing/simulator-client.js';
import { OKTA_RESTORE_ORDER } from '@libs/providers/okta/restore/okta-restore-order.js';
import type { OktaResourceType } from '@libs/providers/resource-types.js';
import { OKTA_VOLATILE_FIELDS } from '@libs/snapshot/content-hash.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import { withoutVolatile } from '@app/diff/record-patch.js';
import { createConnection, openSnapshot, runBackup } from './support/backup-helpers.js';
import { changeOne, deleteOne } from '@libs/okta-simulator/testing/okta-damage.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { RESTORE_SCOPES, runRestore, type RestoreView } from './support/restore-helpers.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;
interface Change {
  resourceType: string;
  action: 'added' | 'removed' | 'modified';
  resource: {
    id: string;
    name: string | null;
    changes?: Array<{ op: string; path: string; value?: unknown }>;
  };
}
/** A field that differs after the round trip, with its value after (for failure messages). */
interface Difference {
  type: string;
  path: string;
  /** record id after the round trip */
  id?: string;
  now?: unknown;
}

/**
 * Differences a faithful restore cannot avoid, per type: a field (JSON pointer into the record's
 * data) and why. Anything else that differs after the round trip fails the test.
 */
const UNAVOIDABLE: Partial<Record<OktaResourceType, Array<{ path: RegExp; why: string }>>> = {
  user: [
    {
      path: /^\/status$/,
      why: 'a re-created user has no password: STAGED until activated (activateUsers sends the activation e-mail)',
    },
    {
      path: /^\/credentials\/(password|recovery_question)$/,
      why: 'Okta never returns passwords or recovery answers, so a re-created user has neither until the person sets them',
    },
  ],
  event_hook: [
    {
      path: /^\/verificationStatus$/,
      why: 'Okta verifies a hook with a call to its endpoint: a re-created event hook is UNVERIFIED until an admin verifies it',
    },
  ],
  app: [
    {
      path: /^\/credentials\/signing\/kid$/,
      why: 'Okta never returns private keys: a re-created app signs with a new key (send the new certificate or metadata to the service provider)',
    },
    {
      path: /^\/name$/,
      why: 'Okta names a custom SAML or SWA app itself (`<subdomain>_<label>_<n>`) when it is created',
    },
  ],
  app_user_schema: [
    { path: /^\/name$/, why: "the schema carries its app's name, which Okta gives a re-created custom app" },
  ],
  authorization_server: [
    {
      path: /^\/credentials\/signing\//,
      why: 'Okta never returns private keys: a re-created authorization server signs with new keys',
    },
    {
      path: /^\/issuer$/,
      why: "a re-created authorization server's issuer holds its new id (clients must be told)",
    },
    {
      path: /^\/default$/,
      why: "a re-created server is never the org's default one: the API cannot make one",
    },
  ],
  custom_domain: [
    {
      path: /^\/(dnsRecords|validationStatus)(\/|$)/,
      why: 'a re-created custom domain gets new DNS verification values from Okta and is unverified until the new records are set in DNS',
    },
  ],
};

/**
 * Types Okta makes itself with a re-created parent (a new app's signing key and client secret):
 * new records after the round trip, which no restore writes.
 */
const MADE_BY_OKTA = ['app_signing_key', 'app_client_secret'];

/** Server-owned fields of a record's data: new for every re-created object. */
const SERVER_OWNED = new Set(['id', 'created', 'createdBy', 'lastUpdatedBy', ...OKTA_VOLATILE_FIELDS]);

/** One row of docs/restore-fidelity.md. */
interface Row {
  type: string;
  damage: string;
  restore: string;
  differences: string;
}

/** Children before their parents: deleting an app first would leave its features nothing to test. */
const TYPES = [...OKTA_RESTORE_ORDER].reverse();
const DOC = new URL('../docs/restore-fidelity.md', import.meta.url);

/**
 * Issue 5 "Proof": for every type, in restore order, a backup; then the org damaged through
 * Okta's API as an admin would (one object deleted, another changed, where Okta allows); a
 * selective restore of the type; a second backup; and the diff of the two backups, which must be
 * empty apart from re-created objects' new ids (paired through the restore's items) and the
 * documented differences above. The run writes the per-type table to docs/restore-fidelity.md.
 */
describe('restore fidelity: back up, damage, restore, back up again, diff', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;
  const rows: Row[] = [];

  beforeAll(async () => {
    org = await startTestOrg({ users: 30, groups: 6, apps: 5, seed: 7 }, RESTORE_SCOPES);
    okta = new SimulatorClient(org.sim);
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
  });

  afterAll(async () => {
    if (rows.length === TYPES.length) writeFileSync(DOC, fidelityPage(rows));
    await ctx?.close();
    await okta?.close();
    await org?.sim.close();
  });

  it.each(TYPES)('%s', async (type) => {
    const before = await runBackup(ctx, admin.token, { connectionId });
    const state = org.sim.snapshot();
    const records = state[type];
    const deleted = await deleteOne(okta, type, records, state);
    const others = records.filter((record) => record.id !== deleted);
    const changed = await changeOne(okta, type, others, org.sim.snapshot(), () => org.sim.snapshot());
    const damage = describeDamage(records.length, deleted, changed);
    if (!deleted && !changed) {
      rows.push({ type, damage, restore: 'nothing to restore', differences: '' });
      return;
    }

    const restored = await runRestore(ctx, admin.token, {
      backupId: before.id,
      mode: 'selective',
      resourceTypes: [type],
    });
    const after = await runBackup(ctx, admin.token, { connectionId });
    const diff = await ctx.http
      .post('/api/diff')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ fromBackupId: before.id, toBackupId: after.id });
    expect(diff.status).toBe(200);
    const outcome = await reconcile(
      diff.body.changes as Change[],
      restored,
      await openSnapshot(ctx, before.storage_key),
      await openSnapshot(ctx, after.storage_key),
    );

    const failures = restored.items.filter((item) => item.outcome === 'failed');
    const notRestorable = restored.items.filter((item) =>
      String((item.notes as string[])[0]).startsWith('Not restored'),
    );
    const undocumented = outcome.differences.filter(
      ({ type: changedType, path }) =>
        !(UNAVOIDABLE[changedType as OktaResourceType] ?? []).some((allowed) => allowed.path.test(path)),
    );
    rows.push({
      type,
      damage,
      restore:
        notRestorable.length > 0
          ? `${restored.restore.status}: ${describeWrites(restored)}; not restored (the API cannot write them): ${[
              ...new Set(notRestorable.map((item) => item.resourceType)),
            ].join(', ')}`
          : `${restored.restore.status}: ${describeWrites(restored)}`,
      differences: [
        ...outcome.differences.map(({ type: t, path }) => `${t} ${path}`),
        ...outcome.lost.map((id) => `lost ${id}`),
      ].join('; '),
    });
    const problems = {
      failed: failures,
      lost: outcome.lost.filter((id) => !notRestorable.some((item) => id.endsWith(item.resourceId))),
      extra: outcome.extra.filter((id) => !MADE_BY_OKTA.includes(id.split(' ')[0])),
      undocumented,
    };
    const clean = Object.values(problems).every((list) => list.length === 0);
    // On a failure, the restore's writes say what it did.
    const writes = restored.items.map(
      (item) =>
        `${item.action} ${item.resourceType} ${item.resourceId} ${item.outcome} ${String(item.error ?? '')}`,
    );
    expect(clean ? problems : { ...problems, writes }).toEqual({
      failed: [],
      lost: [],
      extra: [],
      undocumented: [],
    });
  });
});

/**
 * Pairs the diff's removed and added records through the restore's new ids (a re-created object
 * and what hangs off it get new record ids), and compares each pair field by field without
 * server-owned fields. @returns the fields that differ, and records lost or extra
 */
async function reconcile(
  changes: Change[],
  restored: RestoreView,
  before: SnapshotReader,
  after: SnapshotReader,
): Promise<{ differences: Difference[]; lost: string[]; extra: string[] }> {
  const ids = new Map<string, string>();
  for (const item of restored.items)
    if (item.newId) ids.set(String(item.resourceId).split(':').pop()!, String(item.newId).split(':').pop()!);
  /** Ids in `text` rewritten to the re-created objects', except `own` (an object's own old id in its own text). */
  const rewrite = (text: string, own?: string) =>
    [...ids].reduce((result, [from, to]) => (from === own ? result : result.split(from).join(to)), text);
  const differences: Difference[] = [];
  const lost: string[] = [];
  const added = new Set(
    changes.filter((c) => c.action === 'added').map((c) => `${c.resourceType} ${c.resource.id}`),
  );
  /** The fields of `type` that differ between a backed-up record (ids rewritten) and its live twin. */
  const compare = async (type: string, fromId: string, toId: string) => {
    const from = (await before.findRecord(type, fromId))!.record.data;
    const to = (await after.findRecord(type, toId))!.record.data;
    // A top-level object's own old id may stand in its own text (a hook URL): it is not a reference.
    const own = fromId.includes(':') ? undefined : fromId;
    for (const op of fastJsonPatch.compare(
      comparable(JSON.parse(rewrite(JSON.stringify(from), own))),
      comparable(to),
    ))
      differences.push({ type, path: op.path, id: toId, now: 'value' in op ? op.value : undefined });
  };
  // Objects the restore matched by name under another id (Okta's own, which the restore updates
  // but never re-creates: no item records their new id), by type, parent and name.
  const parentOf = (id: string) => id.split(':').slice(0, -1).join(':');
  const byName = new Map(
    changes
      .filter((c) => c.action === 'added' && c.resource.name)
      .map((c) => [`${c.resourceType} ${parentOf(c.resource.id)} ${c.resource.name}`, c.resource.id]),
  );
  for (const change of changes) {
    if (change.action === 'modified')
      await compare(change.resourceType, change.resource.id, change.resource.id);
    else if (change.action === 'removed') {
      const rewritten = rewrite(change.resource.id);
      const twin = added.has(`${change.resourceType} ${rewritten}`)
        ? rewritten
        : byName.get(`${change.resourceType} ${parentOf(rewritten)} ${change.resource.name}`);
      if (twin !== undefined && added.delete(`${change.resourceType} ${twin}`))
        await compare(change.resourceType, change.resource.id, twin);
      else lost.push(`${change.resourceType} ${change.resource.id}`);
    }
  }
  return { differences, lost, extra: [...added] };
}

/** A record's data without its volatile and server-owned fields, at any depth. */
function comparable(data: Json): Json {
  return withoutVolatile(data, SERVER_OWNED) as Json;
}

function describeDamage(count: number, deleted: string | null, changed: string | null): string {
  if (count === 0) return 'none in the generated org';
  const done = [deleted && 'one deleted', changed && 'one changed'].filter(Boolean);
  return done.length ? done.join(', ') : 'Okta lets an admin neither delete nor change one';
}

function describeWrites(restored: RestoreView): string {
  const { create, update, delete: removed } = restored.restore.totals;
  return `${create} created, ${update} updated${removed ? `, ${removed} deleted` : ''}`;
}

function fidelityPage(rows: Row[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const why = Object.entries(UNAVOIDABLE).flatMap(([type, allowed]) =>
    (allowed ?? []).map((entry) => `- \`${type}\` \`${entry.path.source}\`: ${entry.why}`),
  );
  return [
    '# Restore fidelity',
    '',
    'Generated by `test/restore-fidelity.e2e-spec.ts` (do not edit): for every type, in restore order, a',
    "backup of a generated org; the org damaged through Okta's API (one object deleted, another changed,",
    'where Okta lets an admin); a selective restore of the type; a second backup; and the diff of the two.',
    'Re-created objects are paired through the restore\'s new ids; "differences" are the fields that still',
    'differ (server-owned fields such as ids and creation times left out). See docs/restore.md.',
    '',
    'Rows are in restore order; the test runs them children first.',
    '',
    '| type | damage | restore | differences after the round trip |',
    '| --- | --- | --- | --- |',
    ...[...rows]
      .sort(
        (a, b) =>
          OKTA_RESTORE_ORDER.indexOf(a.type as OktaResourceType) -
          OKTA_RESTORE_ORDER.indexOf(b.type as OktaResourceType),
      )
      .map(
        (row) =>
          `| \`${row.type}\` | ${cell(row.damage)} | ${cell(row.restore)} | ${cell(row.differences) || 'none'} |`,
      ),
    '',
    'Documented, unavoidable differences:',
    '',
    ...why,
    '',
  ].join('\n');
}
