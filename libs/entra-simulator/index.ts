export { startEntraSimulator } from './simulator.js';
export type { EntraSimulatorOptions, RunningEntraSimulator } from './simulator.js';
export type { EntraSnapshot, EntraSnapshotRecord } from './snapshot.js';
export type { Collection } from './tenant-state.js';
