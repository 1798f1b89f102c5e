import { GraphError } from './graph-error.js';
import type { GraphObject } from './tenant-state.js';

/**
 * The members of the complex types under a conditional access policy, as the Graph v1.0 CSDL
 * declares them (../shared/fixtures/entra/msgraph-metadata, `conditionalAccessConditionSet`,
 * `conditionalAccessUsers`, `conditionalAccessApplications`...): `lists` are the
 * `Collection(...) Nullable="false"` members, which Graph answers as `[]` when a write left them
 * out; `objects` are the nullable members, answered as `null`. The real tenant's export
 * (ScubaGear ProviderSettingsExport.json) shows both: `userRiskLevels: []`, `locations: null`,
 * `users.includeGuestsOrExternalUsers: null`, `applications.includeUserActions: []`.
 */
interface ComplexShape {
  lists: readonly string[];
  objects: readonly string[];
  /** nullable members of a complex type of their own, given as an object: filled too */
  nested?: Readonly<Record<string, ComplexShape>>;
}

const FILTER_FREE: ComplexShape = { lists: [], objects: [] };

const CONDITION_SET: ComplexShape = {
  lists: ['clientAppTypes', 'servicePrincipalRiskLevels', 'signInRiskLevels', 'userRiskLevels'],
  objects: [
    'applications',
    'authenticationFlows',
    'clientApplications',
    'devices',
    'insiderRiskLevels',
    'locations',
    'platforms',
    'users',
  ],
  nested: {
    applications: {
      lists: [
        'excludeApplications',
        'includeApplications',
        'includeAuthenticationContextClassReferences',
        'includeUserActions',
      ],
      objects: ['applicationFilter'],
    },
    users: {
      lists: [
        'excludeGroups',
        'excludeRoles',
        'excludeUsers',
        'includeGroups',
        'includeRoles',
        'includeUsers',
      ],
      objects: ['excludeGuestsOrExternalUsers', 'includeGuestsOrExternalUsers'],
    },
    clientApplications: {
      lists: ['excludeServicePrincipals', 'includeServicePrincipals'],
      objects: ['servicePrincipalFilter'],
    },
    locations: { lists: ['excludeLocations', 'includeLocations'], objects: [] },
    platforms: { lists: ['excludePlatforms', 'includePlatforms'], objects: [] },
    devices: { lists: [], objects: ['deviceFilter'] },
    authenticationFlows: FILTER_FREE,
  },
};

/** `conditionalAccessGrantControls`: three non-nullable lists, `operator`, `authenticationStrength`. */
const GRANT_CONTROLS: ComplexShape = {
  lists: ['builtInControls', 'customAuthenticationFactors', 'termsOfUse'],
  objects: ['operator', 'authenticationStrength'],
};

/** `value` with `shape`'s absent lists as `[]` and absent nullable members as `null`. */
function filled(value: Record<string, unknown>, shape: ComplexShape): Record<string, unknown> {
  const result: Record<string, unknown> = { ...value };
  for (const name of shape.lists) if (result[name] === undefined || result[name] === null) result[name] = [];
  for (const name of shape.objects) {
    const member = result[name];
    const nested = shape.nested?.[name];
    if (member === undefined) result[name] = null;
    else if (nested && member !== null && typeof member === 'object' && !Array.isArray(member))
      result[name] = filled(member as Record<string, unknown>, nested);
  }
  return result;
}

/** An object member of a write body, or null. @throws GraphError 400 for another JSON value */
function objectOrNull(value: unknown, name: string): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value))
    throw new GraphError(400, 'BadRequest', `Invalid value for property '${name}'.`);
  return value as Record<string, unknown>;
}

/**
 * What Graph stores and answers for a conditional access policy written with `policy` (the
 * merged result of a "Create conditionalAccessPolicy" POST or an "Update conditionalAccessPolicy"
 * PATCH), the rewrite docs/restore.md "Microsoft Entra ID" describes ("Graph rewrites conditional access
 * policies on write"):
 * - the condition set and its complex members come back whole (CSDL shape above): absent
 *   non-nullable lists as `[]`, absent nullable members as `null`;
 * - `grantControls`, when given, comes back with its three lists (`[]` when absent) and an
 *   `operator`: `OR` when none was given, as every policy of the real tenant with a single
 *   control answers (ScubaGear export; the conditionalAccessGrantControls page lists `AND` and
 *   `OR`, and one control is satisfied the same under either);
 * - `grantControls.authenticationStrength` given as a reference (`{ id }`, the way "Create
 *   conditionalAccessPolicy" examples and the "Conditional Access authentication strength" API
 *   overview write it) comes back as the whole authenticationStrengthPolicy, as the real tenant's
 *   export answers it (policy "MS.AAD.3.2v1": `allowedCombinations`, `policyType`, dates...);
 * - `sessionControls` and `grantControls` absent come back `null`, as the export's policies do.
 * Lists keep the order they were written in: no source says Graph re-sorts them, and the
 * export's lists (`clientAppTypes: ["exchangeActiveSync","other"]`...) prove nothing either way.
 * @param strengths the tenant's authentication strength policies, by id
 * @throws GraphError 400 for an authentication strength the tenant does not have, or a
 *   non-object `conditions`/`grantControls`/`sessionControls`
 */
export function normalizeConditionalAccessPolicy(
  policy: GraphObject,
  strengths: ReadonlyMap<string, GraphObject>,
): GraphObject {
  const conditions = objectOrNull(policy.conditions, 'conditions') ?? {};
  const grant = objectOrNull(policy.grantControls, 'grantControls');
  const session = objectOrNull(policy.sessionControls, 'sessionControls');
  let grantControls: Record<string, unknown> | null = null;
  if (grant) {
    grantControls = filled(grant, GRANT_CONTROLS);
    if (grantControls.operator === null) grantControls.operator = 'OR';
    const strength = objectOrNull(grantControls.authenticationStrength, 'authenticationStrength');
    if (strength) {
      const id = String(strength.id ?? '');
      const found = strengths.get(id);
      if (!found)
        throw new GraphError(
          400,
          'BadRequest',
          `The authentication strength policy '${id}' referenced by grantControls does not exist.`,
        );
      grantControls.authenticationStrength = { ...found };
    }
  }
  return {
    ...policy,
    description: policy.description ?? null,
    templateId: policy.templateId ?? null,
    conditions: filled(conditions, CONDITION_SET),
    grantControls,
    sessionControls: session,
  };
}
