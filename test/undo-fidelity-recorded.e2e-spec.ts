import { describe, expect, it } from '@jest/globals';
import { startSimulator } from '@libs/simulators/okta/index.js';
import { recordedOrgNames, seedFromFixtures } from '@libs/simulators/okta/seed/fixtures/fixture-seeder.js';
import { OrgState } from '@libs/simulators/okta/store/org-state.js';
import { TYPES, type RoundTripOrg } from './support/okta-fidelity.js';
import { FIXTURES_DIR, HAVE_FIXTURES } from './support/okta-org.js';
import { describeOktaUndo } from './support/okta-undo-fidelity.js';

/**
 * docs/restore-fidelity.md "Undo since a clean point" on each org recorded in
 * ../shared/fixtures/okta/vcr, seeded as recorded-fidelity.ts seeds them: every type the org holds
 * damaged at once, one undo since the clean backup, each type lossless or with its documented
 * difference, and a second undo that writes nothing. An org that yields no object has nothing to
 * undo: its seeding says why.
 */
/**
 * What the undo still fails on in recorded orgs, with what is left to do: run as expected
 * failures, so a fix shows as a failing "expected to fail" until removed here.
 */
const DELETED_ACCESS_POLICY =
  'the access policy deleted since the backup (rstrp9xdf2gnrxgAv697) is put back by an update of a live policy matched by natural key, yet the backup after lacks it: not yet found why';
/** Why the second undo of an org whose deleted app the first re-created still writes. */
const SIGN_ON_POLICY_RERUN =
  "the second undo re-creates a re-created app's sign-on policy under the app's old id (404): the restore it runs plans only the changed types, so its id map lacks the app that planUndo mapped";
const OPEN: Record<
  string,
  {
    types?: RoundTripOrg['open'];
    rerun?: string;
    /** open types whose undo fails in some runs only, and how (the order of concurrent writes decides) */
    varies?: Parameters<typeof describeOktaUndo>[2];
  }
> = {
  'oie-00': { types: { policy: DELETED_ACCESS_POLICY }, rerun: SIGN_ON_POLICY_RERUN },
  'classic-00': { types: { policy: DELETED_ACCESS_POLICY }, rerun: SIGN_ON_POLICY_RERUN },
  'skip-auth-policy-00': {
    types: {
      app_sign_on_policy:
        "after the undo an app's sign-on policy names another access policy than the backup's although its update answered ok, in some runs: not yet found why",
      policy_rule:
        'a rule of the access policy whose app sign-on assignment the undo changes is lost in some runs: not yet found why',
    },
    varies: { app_sign_on_policy: { paths: [/^\/policyId$/] }, policy_rule: { lost: true } },
  },
};

if (!HAVE_FIXTURES)
  describe.skip('undo fidelity on recorded orgs (no fixtures)', () => {
    it.todo('runs when ../shared/fixtures/okta/vcr or OKTA_FIXTURES_DIR is present');
  });
else
  for (const name of await recordedOrgNames(FIXTURES_DIR)) {
    const seeded = await seedFromFixtures(new OrgState(), FIXTURES_DIR, name).catch((error: Error) => error);
    if (seeded instanceof Error) {
      describe(`undo fidelity (${name})`, () => {
        it('holds nothing a backup holds, so nothing to undo', () => {
          expect(seeded.message).toMatch(/yields no object/);
        });
      });
      continue;
    }
    const sim = await startSimulator({ fixturesDir: FIXTURES_DIR, fixtureOrg: name });
    const snapshot = sim.snapshot();
    await sim.close();
    describeOktaUndo(
      {
        section: name,
        options: { fixturesDir: FIXTURES_DIR, fixtureOrg: name },
        types: TYPES.filter((type) => snapshot[type].length > 0),
        ...(OPEN[name]?.types ? { open: OPEN[name].types } : {}),
      },
      OPEN[name]?.rerun,
      OPEN[name]?.varies,
    );
  }
