import { describe, it } from '@jest/globals';
import { csdlFile, scubaGearFile } from '@libs/simulators/entra/testing/fixture-paths.js';
import { describeEntraUndo } from './support/entra-undo-fidelity.js';
import { describeOktaUndo } from './support/okta-undo-fidelity.js';

/**
 * docs/restore-fidelity.md "Undo since a clean point": every type damaged at once, one undo since
 * the clean backup, each type lossless or with its documented difference, and a second undo that
 * writes nothing; on a generated Okta org and on the simulated Entra tenant of the Entra table.
 */
describeOktaUndo({ section: 'generated', options: { users: 30, groups: 6, apps: 5, seed: 7 } });

const FIXTURE = scubaGearFile();
/**
 * Entra types whose undo still fails, with what is left to do: run as expected failures, so a fix
 * shows as a failing "expected to fail" until removed here.
 */
const CAME_BACK =
  "a link added since the backup to a user deleted since comes back when the undo restores the user from the deleted items (with the links it had); the undo's second look (RestoreUndo.cameBack) does not list it as a change yet, so it stays";
const ENTRA_OPEN = {
  group_membership: CAME_BACK,
  group_owner: CAME_BACK,
  application_owner: CAME_BACK,
} as const;

if (FIXTURE)
  describeEntraUndo(
    { scubaGearFile: FIXTURE, csdlFile: csdlFile(), users: 30, groups: 4, seed: 30 },
    ENTRA_OPEN,
  );
else
  describe.skip('undo fidelity (Entra ID): no ScubaGear export', () => {
    it.todo('runs when ../shared/fixtures/entra/scubagear or ENTRA_SCUBAGEAR_FILE is present');
  });
