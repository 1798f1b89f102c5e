export { workflowsHost, INVOKE_SCOPE, type WorkflowsHandle } from './workflows-host.js';
export { EXPORTER_ALIAS, type WorkflowsSeed } from './generate-workflows.js';
export { startWorkflowsSimulator, type RunningWorkflowsSimulator } from './start-workflows-simulator.js';
export type { WorkflowsOrgData, WorkflowFlow, WorkflowTable, WorkflowConnection } from './workflows-org.js';
export { exportFolder, tableCsv } from './flopack-export.js';
