import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is libs/simulators/okta/testing/fixture-paths.ts). */
const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Recorded Okta traffic (go-vcr cassettes): `OKTA_FIXTURES_DIR`, else `../shared/fixtures/okta/vcr`
 * beside the repository (fixtures/README.md). Undefined when absent: specs then skip.
 */
export function cassettesDir(): string | undefined {
  const dir = process.env.OKTA_FIXTURES_DIR ?? `${REPO}../shared/fixtures/okta/vcr`;
  return existsSync(dir) ? dir : undefined;
}

/** Okta's OpenAPI description: `OKTA_OPENAPI_FILE`, else the shared fixtures copy; undefined when absent. */
export function openApiFile(): string | undefined {
  const file = process.env.OKTA_OPENAPI_FILE ?? `${REPO}../shared/fixtures/okta/openapi/management.yaml`;
  return existsSync(file) ? file : undefined;
}
