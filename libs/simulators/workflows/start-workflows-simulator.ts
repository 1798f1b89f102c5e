import { startSimulator } from '@libs/simulators/okta/index.js';
import type { RunningSimulator, SimulatorOptions } from '@libs/simulators/okta/simulator-options.js';
import type { WorkflowsSeed } from './generate-workflows.js';
import { type WorkflowsHandle, workflowsHost } from './workflows-host.js';

/** A simulated Okta org that also serves its Okta Workflows host. */
export interface RunningWorkflowsSimulator extends RunningSimulator {
  workflows: WorkflowsHandle;
}

/**
 * Starts the Okta simulator with `options`, serving on the org's own origin a Workflows folder
 * generated from `seed` and its exporter flow's invoke route (README "Served").
 */
export async function startWorkflowsSimulator(
  options: SimulatorOptions,
  seed: WorkflowsSeed,
): Promise<RunningWorkflowsSimulator> {
  const hosted: { handle?: WorkflowsHandle } = {};
  const sim = await startSimulator({
    ...options,
    hostedRoutes: (org) => {
      const host = workflowsHost(org, seed);
      hosted.handle = host.handle;
      return host.routes;
    },
  });
  if (!hosted.handle) throw new Error('The Okta simulator started without its Workflows routes');
  return Object.assign(sim, { workflows: hosted.handle });
}
