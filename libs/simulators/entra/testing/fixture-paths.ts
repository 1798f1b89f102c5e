import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is libs/simulators/entra/testing/fixture-paths.ts). */
const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * CISA ScubaGear's export of a real tenant (../shared/fixtures/entra/SOURCE.md), read in place,
 * never copied: `ENTRA_SCUBAGEAR_FILE`, else the shared fixtures beside the repository.
 * Undefined when absent: tests then skip.
 */
export function scubaGearFile(): string | undefined {
  const file =
    process.env.ENTRA_SCUBAGEAR_FILE ??
    `${REPO}../shared/fixtures/entra/scubagear/ProviderSettingsExport.json`;
  return existsSync(file) ? file : undefined;
}

/**
 * Graph v1.0's CSDL (../shared/fixtures/entra/SOURCE.md): `ENTRA_CSDL_FILE`, else the shared
 * fixtures beside the repository; undefined when absent (tests then skip).
 */
export function csdlFile(): string | undefined {
  const file =
    process.env.ENTRA_CSDL_FILE ?? `${REPO}../shared/fixtures/entra/msgraph-metadata/v1.0-Prod.csdl`;
  return existsSync(file) ? file : undefined;
}
