import { describe, expect, it } from '@jest/globals';
import { startSimulator, type SimulatorOptions } from '@libs/simulators/okta/index.js';
import { cassettesDir } from '@libs/simulators/okta/testing/fixture-paths.js';
import { OKTA_RESOURCE_TYPES, type OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import { restoreDefinitions } from './definitions/index.js';
import { referencedIds } from './okta-id-references.js';
import { OKTA_RESTORE_ORDER } from './okta-restore-order.js';
import { idParts, omit, SERVER_OWNED } from './restore-definition.js';

const definitions = restoreDefinitions({ activateUsers: false });

/** References to a later type that no order avoids (a cycle of types), and why they are safe. */
const CYCLES: Record<string, string> = {
  'app -> authenticator':
    "an OIDC app's CIBA settings name a custom app authenticator (`backchannel_custom_authenticator_id`), which names an app: Okta has no operation that deletes an authenticator, so a restore never re-creates one and the id stays",
};

/**
 * Every reference from what a restore writes of one object to another object, as `type -> type`,
 * where the object it names is restored after it: a restore that re-creates the named object
 * could not rewrite the reference, and the object would keep the old id.
 */
async function laterReferences(options: SimulatorOptions): Promise<string[]> {
  const sim = await startSimulator(options);
  try {
    const org = sim.snapshot();
    const position = new Map(OKTA_RESTORE_ORDER.map((type, index) => [type, index]));
    /** object id -> the type that holds it (the first in order, for ids some children repeat) */
    const typeOf = new Map<string, OktaResourceType>();
    for (const type of OKTA_RESTORE_ORDER)
      for (const record of org[type] ?? []) {
        const own = idParts(record.id).at(-1) as string;
        if (!typeOf.has(own)) typeOf.set(own, type);
      }
    const found = new Set<string>();
    for (const type of OKTA_RESTORE_ORDER)
      for (const record of org[type] ?? []) {
        const own = new Set(idParts(record.id));
        const written = definitions[type].writable?.(record.data) ?? omit(record.data, SERVER_OWNED);
        for (const id of referencedIds(written)) {
          const named = typeOf.get(id);
          if (named && !own.has(id) && position.get(named)! > position.get(type)!)
            found.add(`${type} -> ${named}`);
        }
      }
    return [...found].filter((reference) => CYCLES[reference] === undefined).sort();
  } finally {
    await sim.close();
  }
}

describe('OKTA_RESTORE_ORDER', () => {
  it('holds every Okta type once', () => {
    expect([...OKTA_RESTORE_ORDER].sort()).toEqual([...OKTA_RESOURCE_TYPES].sort());
  });

  it('restores every type after the types its objects name, in a generated org', async () => {
    expect(await laterReferences({ users: 60, groups: 12, apps: 8, seed: 7 })).toEqual([]);
  });

  const recorded = cassettesDir();
  (recorded ? it : it.skip)(
    'restores every type after the types its objects name, in orgs recorded from real traffic',
    async () => {
      expect(await laterReferences({ fixturesDir: recorded })).toEqual([]);
    },
  );
});
