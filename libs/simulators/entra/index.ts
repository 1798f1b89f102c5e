export { startEntraSimulator } from './simulator.js';
export type { EntraSimulatorOptions, RunningEntraSimulator } from './simulator.js';
export type { EntraSnapshot, EntraSnapshotRecord } from './snapshot.js';
