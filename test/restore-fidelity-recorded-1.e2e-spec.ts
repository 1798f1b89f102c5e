import { describeRecordedOrgs } from './support/recorded-fidelity.js';

// Issue 23's round trip on the recorded orgs dealt to shard 1 (test/support/recorded-fidelity.ts).
await describeRecordedOrgs(1);
