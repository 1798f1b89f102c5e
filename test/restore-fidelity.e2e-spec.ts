import { describeRoundTrip } from './support/okta-fidelity.js';

/** The round trip on a generated org: every type, lossless or with its documented difference. */
describeRoundTrip({ section: 'generated', options: { users: 30, groups: 6, apps: 5, seed: 7 } });
