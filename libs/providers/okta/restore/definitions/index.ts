import type { RestoreWriteOptions } from '@libs/providers/provider-restore.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import type { RestoreDefinition } from '@libs/providers/okta/restore/restore-definition.js';
import { adminRoleDefinitions } from './admin-roles.js';
import { appDefinitions } from './apps.js';
import { authorizationServerDefinitions } from './authorization-servers.js';
import { brandingDefinitions } from './branding.js';
import { directoryDefinitions } from './directory.js';
import { schemaDefinitions } from './schemas.js';
import { securityDefinitions } from './security.js';

/**
 * How a restore writes each Okta type, by category (docs/restore.md): every type has a definition
 * (a type Okta does not let a restore write has one without writes, and notes saying why).
 */
export function restoreDefinitions(
  options: RestoreWriteOptions,
): Record<OktaResourceType, RestoreDefinition> {
  return {
    ...directoryDefinitions(options),
    ...brandingDefinitions(),
    ...adminRoleDefinitions(),
    ...schemaDefinitions(),
    ...securityDefinitions(),
    ...appDefinitions(),
    ...authorizationServerDefinitions(),
  } satisfies Record<OktaResourceType, RestoreDefinition>;
}
