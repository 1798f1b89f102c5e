export { startSimulator } from './simulator.js';
export type { RunningSimulator, SimulatorOptions, SnapshotRecord } from './simulator-options.js';
export type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
export type { FaultOptions } from '@libs/simulators/kit/http/faults.js';
export type { RequestLogSummary } from './http/request-log.js';
export type { RateLimitMode } from './rate-limit/rate-limiter.js';
export type { FixtureSeedReport } from './seed/fixtures/fixture-seeder.js';
