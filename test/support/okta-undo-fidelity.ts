import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import { OKTA_RESTORE_ORDER } from '@libs/providers/okta/restore/okta-restore-order.js';
import { addOne } from '@libs/simulators/okta/testing/okta-additions.js';
import { changeOne, deleteOne } from '@libs/simulators/okta/testing/okta-damage.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { createConnection, runBackup } from './backup-helpers.js';
import { OKTA_FIDELITY, TYPES, type RoundTripOrg } from './okta-fidelity.js';
import { startTestOrg, type TestOrg } from './okta-org.js';
import { ROUND_TRIP_TOKEN_SECONDS } from './restore-fidelity.js';
import { RESTORE_SCOPES } from './restore-helpers.js';
import { startTestApp, type TestApp } from './test-app.js';
import {
  SETUP_TIMEOUT_MS,
  expectRerunWritesNothing,
  expectTypeUndone,
  expectTypeUndoneOrKnownFailure,
  undoSinceClean,
  writeUndoSection,
  type TypeDamage,
  type UndoOutcome,
} from './undo-fidelity.js';

/**
 * docs/restore-fidelity.md "Undo since a clean point" on an Okta org: a clean backup; then every
 * type damaged at once through Okta's API as an admin would, children first (one object deleted
 * and another changed, okta-damage.ts, and one added, okta-additions.ts, where Okta allows); one
 * undo since the clean backup; a backup after it, diffed with the clean one and reconciled per
 * type as the restore table is (restore-fidelity.ts); and the same undo again, which must write
 * nothing. Each type is a test: lossless, or only its documented differences.
 * @param rerunOpen why the second undo still writes, when it does: run as an expected failure
 * @param varies open types whose undo fails in some runs only, with the failure their open reason
 *   names (expectTypeUndoneOrKnownFailure): anything else fails
 */
export function describeOktaUndo(
  subject: RoundTripOrg,
  rerunOpen?: string,
  varies: Partial<Record<string, { lost?: boolean; paths?: readonly RegExp[] }>> = {},
): void {
  const types = subject.types ?? TYPES;
  describe(`undo fidelity (${subject.section}): clean backup, damage every type, undo, back up, diff`, () => {
    let org: TestOrg;
    let okta: SimulatorClient;
    let ctx: TestApp;
    let outcome: UndoOutcome;

    beforeAll(async () => {
      org = await startTestOrg(subject.options, RESTORE_SCOPES);
      okta = new SimulatorClient(org.sim);
      ctx = await startTestApp({ ...org.env, ACCESS_TOKEN_TTL: String(ROUND_TRIP_TOKEN_SECONDS) });
      const { token } = await ctx.newClient({ role: 'admin' });
      const connectionId = await createConnection(ctx, token, {
        baseUrl: org.sim.baseUrl,
        ...org.integration,
      });
      const clean: BackupDto = await runBackup(ctx, token, { connectionId });
      expect(clean.status).toBe('completed');
      const damaged: TypeDamage[] = [];
      for (const type of types) damaged.push(await damage(type));
      outcome = await undoSinceClean(OKTA_FIDELITY, { ctx, token, connectionId, clean }, damaged);
    }, SETUP_TIMEOUT_MS);

    afterAll(async () => {
      if (outcome)
        writeUndoSection(
          subject.section,
          title(subject.section),
          INTRO,
          outcome.rows,
          OKTA_RESTORE_ORDER,
          subject.open,
        );
      await ctx?.close();
      await okta?.close();
      await org?.sim.close();
    });

    for (const type of types) {
      const known = varies[type];
      if (known) it(type, () => expectTypeUndoneOrKnownFailure(outcome, type, known));
      else (subject.open?.[type] ? it.failing : it)(type, () => expectTypeUndone(outcome, type));
    }

    (rerunOpen ? it.failing : it)('writes nothing when the undo runs again', () =>
      expectRerunWritesNothing(outcome),
    );

    /** Deletes one object of the type, changes another and adds one; @returns what it did */
    async function damage(type: OktaResourceType): Promise<TypeDamage> {
      const state = org.sim.snapshot();
      const records = state[type];
      const deleted = await deleteOne(okta, type, records, state);
      const others = records.filter((record) => record.id !== deleted);
      const changed = await changeOne(okta, type, others, org.sim.snapshot(), () => org.sim.snapshot());
      // The objects as the clean org held them are the models of the one added.
      const added = await addOne(okta, type, records, () => org.sim.snapshot());
      const done = [
        records.length === 0 ? 'none held' : deleted ? 'one deleted' : 'none deleted',
        changed ? 'one changed' : records.length > 0 ? 'none changed' : null,
        added.id ? 'one added' : `none added (${added.why})`,
      ];
      return { type, damage: done.filter(Boolean).join(', '), added: added.id };
    }
  });
}

const title = (section: string) =>
  section === 'generated' ? 'generated Okta org' : `recorded Okta org ${section}`;

const INTRO = [
  'Generated by `test/undo-fidelity.e2e-spec.ts` (generated org) and `test/undo-fidelity-recorded.e2e-spec.ts`',
  "(recorded orgs) (do not edit): a clean backup; then every type damaged at once through Okta's API, children",
  'first, as an admin would: one object deleted and another changed (as in the restore table) and one added,',
  'where Okta lets an admin; then one undo since the clean backup (`POST /api/restore` with `mode: undo`, no',
  'filter), a backup after it and the diff of the clean backup with it. "restore" is what the undo wrote to',
  'the type; re-created objects are paired through the undo\'s new ids; "differences" are the fields that',
  'still differ, allowed only where the restore table documents them (`left`: an added object the undo did',
  'not delete). The same undo run again writes nothing.',
].join('\n');
