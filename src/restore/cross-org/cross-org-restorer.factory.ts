import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import type { ProviderKind } from '@libs/providers/provider-kind.js';
import type { RestoreWriteOptions } from '@libs/providers/provider-restore.js';
import { CrossOrgRestorer } from '@libs/restore/cross-org/cross-org-restorer.js';
import { compileMapping, type CrossOrgMapping } from '@libs/restore/cross-org/mapping.js';

/** The target connector's restorer, carrying records of another org's backup over by `mapping`. */
export function crossOrgRestorer(
  target: ProviderConnector,
  provider: ProviderKind,
  options: RestoreWriteOptions,
  mapping: CrossOrgMapping,
): CrossOrgRestorer {
  return new CrossOrgRestorer(target.restorer(options), compileMapping(provider, mapping));
}
