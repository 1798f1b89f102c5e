import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import type { EntraRestoreDefinition } from '@libs/providers/entra/restore/entra-restore-definition.js';
import { administrativeUnitDefinitions } from './administrative-units.js';
import { applicationDefinitions } from './applications.js';
import { conditionalAccessDefinitions } from './conditional-access.js';
import { dependencyDefinitions } from './dependencies.js';
import { directoryDefinitions } from './directory.js';
import { policyDefinitions } from './policies.js';
import { roleDefinitions } from './roles.js';
import { tenantDefinitions } from './tenant.js';

/**
 * How a restore writes each Entra ID type, by area (docs/restore.md): a type without a definition
 * is not written, and the preview's notes say so.
 */
export function entraRestoreDefinitions(): Partial<Record<EntraResourceType, EntraRestoreDefinition>> {
  return {
    ...directoryDefinitions(),
    ...applicationDefinitions(),
    ...administrativeUnitDefinitions(),
    ...roleDefinitions(),
    ...conditionalAccessDefinitions(),
    ...policyDefinitions(),
    ...tenantDefinitions(),
    ...dependencyDefinitions(),
  };
}
