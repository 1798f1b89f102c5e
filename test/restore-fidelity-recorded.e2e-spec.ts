import { describe, expect, it } from '@jest/globals';
import { startSimulator } from '@libs/okta-simulator/index.js';
import { recordedOrgNames } from '@libs/okta-simulator/seed/fixtures/fixture-seeder.js';
import { OrgState } from '@libs/okta-simulator/store/org-state.js';
import { seedFromFixtures } from '@libs/okta-simulator/seed/fixtures/fixture-seeder.js';
import { FIXTURES_DIR, HAVE_FIXTURES } from './support/okta-org.js';
import { describeRoundTrip, TYPES, writeEmptyOrg } from './support/okta-fidelity.js';

if (!HAVE_FIXTURES)
  process.stdout.write(
    `Skipping the recorded-org round trips: ${FIXTURES_DIR} is absent (set OKTA_FIXTURES_DIR).\n`,
  );

/** Each recorded org, and the types it holds (children first), or why it holds none. */
const orgs: Array<{ name: string; types: typeof TYPES } | { name: string; empty: string }> = [];
for (const name of HAVE_FIXTURES ? await recordedOrgNames(FIXTURES_DIR) : []) {
  const seeded = await seedFromFixtures(new OrgState(), FIXTURES_DIR, name).catch((error: Error) => error);
  if (seeded instanceof Error) {
    orgs.push({ name, empty: seeded.message.replace(FIXTURES_DIR, 'the fixtures') });
    continue;
  }
  const sim = await startSimulator({ fixturesDir: FIXTURES_DIR, fixtureOrg: name });
  const snapshot = sim.snapshot();
  await sim.close();
  orgs.push({ name, types: TYPES.filter((type) => snapshot[type].length > 0) });
}

/**
 * Types whose round trip on recorded orgs still fails (issue 23), with what is left to do: they
 * run as expected failures, so a fix shows as a failing "expected to fail" until removed here.
 */
const OPEN: Partial<Record<(typeof TYPES)[number], string>> = {};

/** The open types each recorded org still fails on; an org not listed fails on none. */
const OPEN_IN: Record<string, Array<keyof typeof OPEN>> = {};

/** The open types of one org, with their reasons. */
const openIn = (org: string) => Object.fromEntries((OPEN_IN[org] ?? []).map((type) => [type, OPEN[type]]));

/** Issue 23: the round trip of restore-fidelity.e2e-spec.ts on every org the fixtures recorded. */
for (const org of orgs)
  if ('types' in org)
    describeRoundTrip({
      section: org.name,
      options: { fixturesDir: FIXTURES_DIR, fixtureOrg: org.name },
      types: org.types,
      open: openIn(org.name),
    });
  else
    describe(`restore fidelity (${org.name})`, () => {
      it('holds nothing a backup holds: says so in the fidelity table', () => {
        expect(org.empty).toMatch(/yields no object/);
        writeEmptyOrg(org.name, `Nothing to restore: ${org.empty}.`);
      });
    });

if (orgs.length === 0)
  describe.skip('restore fidelity on recorded orgs (no fixtures)', () => {
    it.todo('runs when ../shared/fixtures/okta/vcr or OKTA_FIXTURES_DIR is present');
  });
