import { describe, it } from '@jest/globals';
import { csdlFile, scubaGearFile } from '@libs/simulators/entra/testing/fixture-paths.js';
import { describeEntraRoundTrip } from './support/entra-fidelity.js';

const FIXTURE = scubaGearFile();

/**
 * docs/restore.md "Microsoft Entra ID": the round trip on a simulated Entra tenant seeded from a real one
 * (CISA ScubaGear's export) and the generator: every type lossless or with its documented difference.
 */
if (FIXTURE)
  describeEntraRoundTrip({ scubaGearFile: FIXTURE, csdlFile: csdlFile(), users: 30, groups: 4, seed: 30 });
else
  describe.skip('restore fidelity (Entra ID): no ScubaGear export', () => {
    it.todo('runs when ../shared/fixtures/entra/scubagear or ENTRA_SCUBAGEAR_FILE is present');
  });
