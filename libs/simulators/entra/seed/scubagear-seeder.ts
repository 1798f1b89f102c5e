import { readFile } from 'node:fs/promises';

import type { GraphObject, TenantState } from '@libs/simulators/entra/tenant-state.js';
import { type GraphTypes, keepDeclared } from './csdl-types.js';
import { Prng } from '@libs/simulators/kit/seed/prng.js';

import { ensureGraphServicePrincipal } from './generate-directory.js';
import { toGraphJson } from './graph-json.js';
import { seedDirectoryFromScubaGear } from './scubagear-directory.js';
import { parseScubaGearExport, type ScubaGearExport } from './scubagear-export.js';
import { userObject } from './users.js';
import { scubaGearSkus } from '@libs/simulators/entra/licences.js';

/** What a seed from the real tenant loaded, per collection. */
export interface ScubaGearSeedReport {
  tenantId: string;
  counts: Record<string, number>;
  /** members left out because Graph v1.0 does not declare them (`<collection>/<id>/<path>`) */
  dropped: string[];
}

/**
 * A ScubaGear export read from `file`, in one shape whatever version wrote it (scubagear-export.ts).
 * @throws ScubaGearExportError naming the section and what was expected, when the file is not such an export
 */
export async function readScubaGearExport(file: string): Promise<ScubaGearExport> {
  return parseScubaGearExport(await readFile(file, 'utf8'), file);
}

/**
 * Seeds `state` with the real tenant CISA's ScubaGear exported (../shared/fixtures/entra/SOURCE.md),
 * converted from Graph PowerShell objects to Graph JSON (graph-json.ts):
 * - its subscriptions (`license_information`, `service_plans`: licences.ts);
 * - its 7 conditional access policies, the authorization policy, the authentication methods
 *   policy with its method configurations (`authenticationMethodConfigurations`, as Graph's GET
 *   returns them), its domain;
 * - the organization, from `tenant_details` (`AADAdditionalData` holds the organization's Graph
 *   properties; its `id` is the tenant id);
 * - its privileged users, which the export names by id, display name and immutable id only;
 * - its group settings, role assignments and schedules, app registrations and service principals
 *   with their consented permissions (scubagear-directory.ts).
 * The export was read through Graph's beta endpoint: with `v1Types` (the v1.0 CSDL's), members
 * v1.0 does not declare are left out, as Graph v1.0 would answer (`dropped` names them).
 */
export function seedFromScubaGear(
  state: TenantState,
  source: ScubaGearExport,
  v1Types?: GraphTypes,
): ScubaGearSeedReport {
  const dropped: string[] = [];
  /** The export's object as Graph v1.0 JSON of `entityType`. */
  const graphJson = (entityType: string, exported: unknown): GraphObject => {
    const object = toGraphJson(exported) as GraphObject;
    return (
      v1Types ? keepDeclared(v1Types, entityType, object, dropped, `${entityType}/${object.id}`) : object
    ) as GraphObject;
  };
  const tenant = source.tenant_details[0];
  state.put('organization', {
    ...graphJson('organization', { ...tenant.AADAdditionalData[0], Id: tenant.TenantId }),
    displayName: tenant.DisplayName,
  });
  for (const sku of scubaGearSkus(source.license_information ?? [], source.service_plans ?? []))
    state.put('subscribedSkus', sku);
  for (const policy of source.conditional_access_policies)
    state.put('conditionalAccessPolicies', graphJson('conditionalAccessPolicy', policy));
  for (const policy of source.authorization_policies)
    state.put('authorizationPolicy', graphJson('authorizationPolicy', policy));
  const methods = source.authentication_method[0];
  if (methods)
    state.put(
      'authenticationMethodsPolicy',
      graphJson('authenticationMethodsPolicy', {
        ...methods.authentication_method_policy,
        AuthenticationMethodConfigurations: methods.authentication_method_feature_settings,
      }),
    );
  for (const domain of source.domain_settings) state.put('domains', graphJson('domain', domain));
  for (const [id, user] of Object.entries(source.privileged_users)) {
    state.put(
      'users',
      userObject({
        id,
        displayName: user.DisplayName,
        // The export leaves out what every user has: a UPN and mail nickname, made from the name
        // on the tenant's initial domain ("Create user" requires both).
        ...principalName(user.DisplayName, source),
        onPremisesImmutableId: user.OnPremisesImmutableId,
        accountEnabled: true,
        userType: 'Member',
      }),
    );
  }
  // The tenant's own Microsoft Graph service principal receives the consented permissions.
  seedDirectoryFromScubaGear(state, source, graphJson, ensureGraphServicePrincipal(state, Prng.seeded(0)));
  return {
    tenantId: tenant.TenantId,
    counts: Object.fromEntries([...state.collections].map(([name, objects]) => [name, objects.size])),
    dropped,
  };
}

/** A privileged user's `userPrincipalName` and `mailNickname`: the name's letters and digits on the initial domain. */
function principalName(
  displayName: string,
  source: ScubaGearExport,
): { userPrincipalName: string; mailNickname: string } {
  const initial =
    source.domain_settings.find((domain) => domain.IsInitial === true) ?? source.domain_settings[0];
  const mailNickname = displayName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.|\.$/g, '');
  return {
    userPrincipalName: `${mailNickname}@${String(initial?.Id ?? 'tenant.onmicrosoft.com')}`,
    mailNickname,
  };
}
