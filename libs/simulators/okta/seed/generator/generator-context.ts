import type { OrgState } from '@libs/simulators/okta/store/org-state.js';
import { oktaId, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { Prng } from '@libs/simulators/kit/seed/prng.js';
import type { NamePools } from './name-pools.js';

// Bound once for hot loops (see seed/prng.ts).
const { floor } = Math;

/** Generated objects are dated between these instants (all in the past, so later API writes sort after). */
const ORG_BORN = Date.UTC(2021, 0, 4);
const SEEDED_AT = Date.UTC(2025, 0, 6);

/** What every generator step shares: the org being filled, the PRNG, name pools and a fixed clock. */
export class GeneratorContext {
  readonly prng: Prng;

  constructor(
    readonly state: OrgState,
    readonly pools: NamePools,
    seed: number,
    readonly baseUrl: string,
  ) {
    this.prng = Prng.seeded(seed ^ 0x5eed);
  }

  id(prefix: string): string {
    return oktaId(prefix, this.prng.next);
  }

  /** A random instant in the org's life, at or after `notBefore` (epoch ms). */
  instant(notBefore = ORG_BORN): number {
    return notBefore + floor(this.prng.next() * (SEEDED_AT - notBefore));
  }

  /** `{ created, lastUpdated }` with lastUpdated at or after created, as Okta timestamps. */
  timestamps(): { created: string; lastUpdated: string; createdMs: number } {
    const createdMs = this.instant();
    return {
      created: oktaTimestamp(createdMs),
      lastUpdated: oktaTimestamp(this.instant(createdMs)),
      createdMs,
    };
  }
}
