import { generateKeyPairSync } from 'node:crypto';
import type { JWK } from 'jose';
import type { SimulatorOptions } from '@libs/simulators/okta/index.js';
import {
  startWorkflowsSimulator,
  type RunningWorkflowsSimulator,
  type WorkflowsHandle,
  type WorkflowsSeed,
} from '@libs/simulators/workflows/index.js';
import { rememberSecrets } from './log-capture.js';

/** A simulated Okta org with its Workflows host and an API Services app holding a key pair. */
export interface TestWorkflowsOrg {
  sim: RunningWorkflowsSimulator;
  workflows: WorkflowsHandle;
  app: { clientId: string; privateKeyPem: string; privateJwk: JWK };
  /** Settings that let the service call the simulator (allowed host, trusted CA). */
  env: Record<string, string>;
  /** Registers another API Services app with its own key, granted `scopes`. */
  newApp(scopes: readonly string[]): { clientId: string; privateKeyPem: string; privateJwk: JWK };
}

/**
 * Starts the Okta simulator with a Workflows folder from `seed` and an app granted `scopes`;
 * `org` adds the simulator's faults or Okta's rate limits.
 */
export async function startWorkflowsOrg(
  seed: WorkflowsSeed,
  scopes: readonly string[],
  org: Pick<SimulatorOptions, 'faults' | 'rateLimits'> = {},
): Promise<TestWorkflowsOrg> {
  const sim = await startWorkflowsSimulator({ users: 5, groups: 2, apps: 1, ...org }, seed);
  const newApp = (granted: readonly string[]) => {
    // The Admin Console's "Generate new key" makes a 2048-bit RSA pair and shows the private JWK and PEM.
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const kid = `k${Math.random().toString(36).slice(2, 10)}`;
    const publicJwk = { ...(publicKey.export({ format: 'jwk' }) as JWK), kid, alg: 'RS256', use: 'sig' };
    const clientId = sim.registerServiceApp(publicJwk, granted);
    const privateJwk = { ...(privateKey.export({ format: 'jwk' }) as JWK), kid, alg: 'RS256' };
    // The log scan of the run (docs/operations.md) then also looks for the key's private exponent.
    rememberSecrets(privateJwk.d);
    return {
      clientId,
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      privateJwk,
    };
  };
  return {
    sim,
    workflows: sim.workflows,
    app: newApp(scopes),
    env: { PROVIDER_ALLOWED_HOSTS: '127.0.0.1', PROVIDER_CA_FILE: sim.caCertPath },
    newApp,
  };
}

/** The create body of a Workflows connection to the simulated org. */
export function workflowsConnectionBody(
  org: TestWorkflowsOrg,
  app = org.app,
  privateKey: string = app.privateKeyPem,
): Record<string, string> {
  return {
    provider: 'okta_workflows',
    org_url: org.sim.baseUrl,
    client_id: app.clientId,
    private_key: privateKey,
    flow_alias: org.workflows.exporterAlias,
    org_name: 'Workflows test org',
  };
}
