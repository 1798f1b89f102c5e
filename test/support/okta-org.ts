import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '@libs/simulators/okta/index.js';
import { OKTA_BACKUP_SCOPES } from '@libs/providers/okta/okta-scopes.js';
import { installApiServiceIntegration, type ApiServiceIntegration } from '@tools/demo/okta-api-service.js';
import { rememberSecrets } from './log-capture.js';

/** Where the recorded real Okta objects are: OKTA_FIXTURES_DIR, else ../shared beside the checkout. */
export const FIXTURES_DIR =
  process.env.OKTA_FIXTURES_DIR ?? resolve(process.cwd(), '../shared/fixtures/okta/vcr');
export const HAVE_FIXTURES = existsSync(FIXTURES_DIR);

/** A simulated Okta org with an API service integration installed for the backup scopes. */
export interface TestOrg {
  sim: RunningSimulator;
  integration: ApiServiceIntegration;
  /** Settings that let the service call this org (allowed host, trusted CA). */
  env: Record<string, string>;
}

export async function startTestOrg(
  options: SimulatorOptions,
  scopes: readonly string[] = OKTA_BACKUP_SCOPES,
): Promise<TestOrg> {
  const sim = await startSimulator(options);
  const integration = await installApiServiceIntegration(sim, scopes);
  rememberSecrets(integration.clientSecret);
  return { sim, integration, env: { PROVIDER_ALLOWED_HOSTS: '127.0.0.1', PROVIDER_CA_FILE: sim.caCertPath } };
}
