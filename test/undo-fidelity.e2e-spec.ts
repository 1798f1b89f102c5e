import { describeOktaUndo } from './support/okta-undo-fidelity.js';

/**
 * docs/restore-fidelity.md "Undo since a clean point": every type damaged at once, one undo since
 * the clean backup, each type lossless or with its documented difference, and a second undo that
 * writes nothing; on a generated Okta org.
 */
describeOktaUndo({ section: 'generated', options: { users: 30, groups: 6, apps: 5, seed: 7 } });
