import { describe, expect, it } from '@jest/globals';
import { startSimulator } from '@libs/simulators/okta/index.js';
import { recordedOrgNames } from '@libs/simulators/okta/seed/fixtures/fixture-seeder.js';
import { OrgState } from '@libs/simulators/okta/store/org-state.js';
import { seedFromFixtures } from '@libs/simulators/okta/seed/fixtures/fixture-seeder.js';
import { FIXTURES_DIR, HAVE_FIXTURES } from './okta-org.js';
import { describeRoundTrip, TYPES, writeEmptyOrg } from './okta-fidelity.js';

/**
 * Types whose round trip on recorded orgs still fails (docs/restore-fidelity.md), with what is left to do:
 * they run as expected failures, so a fix shows as a failing "expected to fail" until removed here.
 */
const OPEN: Partial<Record<(typeof TYPES)[number], string>> = {};

/** The open types each recorded org still fails on; an org not listed fails on none. */
const OPEN_IN: Record<string, Array<keyof typeof OPEN>> = {};

/** The open types of one org, with their reasons. */
const openIn = (org: string) => Object.fromEntries((OPEN_IN[org] ?? []).map((type) => [type, OPEN[type]]));

/** Test files the recorded orgs are dealt to, so that parallel Jest workers share them. */
export const RECORDED_SHARDS = 2;

/**
 * docs/restore-fidelity.md: the round trip of restore-fidelity.e2e-spec.ts on the recorded orgs of one shard:
 * the orgs in ../shared/fixtures/okta/vcr, most recorded first, dealt in turn to
 * RECORDED_SHARDS test files (`shard` counts from 1).
 */
export async function describeRecordedOrgs(shard: number): Promise<void> {
  if (!HAVE_FIXTURES) {
    process.stdout.write(
      `Skipping the recorded-org round trips: ${FIXTURES_DIR} is absent (set OKTA_FIXTURES_DIR).\n`,
    );
    describe.skip('restore fidelity on recorded orgs (no fixtures)', () => {
      it.todo('runs when ../shared/fixtures/okta/vcr or OKTA_FIXTURES_DIR is present');
    });
    return;
  }
  const names = (await recordedOrgNames(FIXTURES_DIR)).filter((_, i) => i % RECORDED_SHARDS === shard - 1);
  if (names.length === 0)
    describe.skip(`restore fidelity on recorded orgs (shard ${shard})`, () => {
      it.todo(`runs when the fixtures record ${shard} orgs or more`);
    });
  for (const name of names) {
    const seeded = await seedFromFixtures(new OrgState(), FIXTURES_DIR, name).catch((error: Error) => error);
    if (seeded instanceof Error) {
      const why = seeded.message.replace(FIXTURES_DIR, 'the fixtures');
      describe(`restore fidelity (${name})`, () => {
        it('holds nothing a backup holds: says so in the fidelity table', () => {
          expect(why).toMatch(/yields no object/);
          writeEmptyOrg(name, `Nothing to restore: ${why}.`);
        });
      });
      continue;
    }
    const sim = await startSimulator({ fixturesDir: FIXTURES_DIR, fixtureOrg: name });
    const snapshot = sim.snapshot();
    await sim.close();
    describeRoundTrip({
      section: name,
      options: { fixturesDir: FIXTURES_DIR, fixtureOrg: name },
      types: TYPES.filter((type) => snapshot[type].length > 0),
      open: openIn(name),
    });
  }
}
