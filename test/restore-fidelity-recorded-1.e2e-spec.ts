import { describeRecordedOrgs } from './support/recorded-fidelity.js';

// The round trip (docs/restore-fidelity.md) on the recorded orgs dealt to shard 1
// (test/support/recorded-fidelity.ts).
await describeRecordedOrgs(1);
