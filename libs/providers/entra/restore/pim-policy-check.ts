import type { ResourceRecord } from '@libs/records/resource-record.js';
import { DIRECTORY_ROLE_POLICIES } from '@libs/providers/entra/entra-resource-catalog.js';
import type { GraphApiClient, GraphObject } from '@libs/providers/entra/graph-api-client.js';

/** The PIM rule level a schedule type's requests are checked at. */
const LEVELS: Readonly<Record<string, 'Eligibility' | 'Assignment'>> = {
  role_eligibility_schedule: 'Eligibility',
  role_assignment_schedule: 'Assignment',
};

/** Milliseconds of an ISO 8601 duration of days and time (`P180D`, `PT8H`), or null for another form. */
export function isoDurationMs(value: unknown): number | null {
  const parts = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(String(value ?? ''));
  if (!parts) return null;
  const units = [86_400_000, 3_600_000, 60_000, 1000];
  return units.reduce((sum, unit, at) => sum + Number(parts[at + 1] ?? 0) * unit, 0);
}

/**
 * Why a role's management policy refuses an administrator's request for `schedule` at `level`,
 * each as the rule Graph names in `RoleAssignmentRequestPolicyValidationFailed`
 * ("unifiedRoleManagementPolicyExpirationRule": `isExpirationRequired`, `maximumDuration`;
 * "unifiedRoleManagementPolicyEnablementRule" of the `Admin` caller: `Justification`,
 * `MultiFactorAuthentication`, which an app with no signed-in user cannot satisfy). A restore
 * always sends a justification.
 */
export function refusedBy(
  rules: readonly GraphObject[],
  level: 'Eligibility' | 'Assignment',
  schedule: GraphObject,
): string[] {
  const rule = (id: string) => rules.find((candidate) => candidate.id === id);
  const refusals: string[] = [];
  const expiration = rule(`Expiration_Admin_${level}`);
  const info = (schedule.scheduleInfo ?? {}) as GraphObject;
  const ends = (info.expiration ?? {}) as GraphObject;
  if (expiration) {
    const start = Date.parse(String(info.startDateTime ?? ''));
    const length =
      ends.type === 'afterDuration'
        ? isoDurationMs(ends.duration)
        : ends.type === 'afterDateTime'
          ? Date.parse(String(ends.endDateTime)) - (Number.isNaN(start) ? Date.now() : start)
          : null;
    const maximum = isoDurationMs(expiration.maximumDuration);
    // A role that allows permanent assignments sets no maximum ("Allow permanent ... assignment").
    if (expiration.isExpirationRequired === true && length === null)
      refusals.push(
        `ExpirationRule: the role requires an end (at most ${String(expiration.maximumDuration)}), the backup's is permanent`,
      );
    else if (
      expiration.isExpirationRequired === true &&
      length !== null &&
      maximum !== null &&
      length > maximum
    )
      refusals.push(`ExpirationRule: longer than the role's maximum ${String(expiration.maximumDuration)}`);
  }
  const enabled = rule(`Enablement_Admin_${level}`)?.enabledRules;
  if (Array.isArray(enabled) && enabled.includes('MultiFactorAuthentication'))
    refusals.push('MfaRule: the role requires MFA of whoever assigns it, which an app cannot give');
  return refusals;
}

/**
 * The role management policies a restore's PIM schedules are checked against (preview notes):
 * the backup's, as the restore plans the `role_management_policy` and
 * `role_management_policy_assignment` records it writes before the schedules, else the tenant's
 * ("List roleManagementPolicies" with `$expand=rules`, "List roleManagementPolicyAssignments").
 */
export class PimPolicyCheck {
  /** role definition id -> policy id, and policy id -> rules: the live ones, then the backup's */
  private readonly policyOfRole = new Map<string, string>();
  private readonly rulesOfPolicy = new Map<string, GraphObject[]>();
  /** policy id -> the role definition it applies to, of the backup (rewritten) and the tenant */
  private readonly roleOfPolicy = new Map<string, string>();

  /**
   * Reads the tenant's policies of directory roles.
   * @throws as GraphApiClient.pages (ProviderAuthError without RoleManagementPolicy.Read.Directory)
   */
  async load(graph: GraphApiClient, signal?: AbortSignal): Promise<void> {
    for await (const page of graph.pages({
      template: '/v1.0/policies/roleManagementPolicyAssignments',
      query: { $filter: DIRECTORY_ROLE_POLICIES },
      signal,
    }))
      for (const assignment of page) this.learn('role_management_policy_assignment', assignment);
    for await (const page of graph.pages({
      template: '/v1.0/policies/roleManagementPolicies',
      query: { $filter: DIRECTORY_ROLE_POLICIES, $expand: 'rules' },
      signal,
    }))
      for (const policy of page) this.learn('role_management_policy', policy);
  }

  /** Takes a policy or policy assignment (backup or live): later ones win. */
  learn(type: string, data: GraphObject): void {
    if (type === 'role_management_policy_assignment' && typeof data.roleDefinitionId === 'string')
      this.policyOfRole.set(data.roleDefinitionId, String(data.policyId));
    if (type === 'role_management_policy' && Array.isArray(data.rules))
      this.rulesOfPolicy.set(String(data.id), data.rules as GraphObject[]);
  }

  /**
   * Takes a policy assignment (the backup's, its ids rewritten, or the tenant's): a policy id
   * names its tenant, so the two tenants' never collide.
   */
  learnRole(data: GraphObject): void {
    if (typeof data.roleDefinitionId === 'string' && typeof data.policyId === 'string')
      this.roleOfPolicy.set(data.policyId, data.roleDefinitionId);
  }

  /**
   * The natural key of a role management policy record: its scope and the role definition its
   * assignment names ("unifiedRoleManagementPolicyAssignment": `scopeId`, `scopeType`,
   * `roleDefinitionId`, `policyId`), or null before its assignment was learnt. Entra makes one
   * policy per role and scope; a built-in role's id is its template id, the same in every tenant
   * ("unifiedRoleDefinition"), and a custom role's is the target's once matched by name, so the
   * key pairs a tenant's policy with another tenant's for the same role.
   */
  policyKey(record: ResourceRecord): string | null {
    const role = this.roleOfPolicy.get(record.id);
    if (role === undefined) return null;
    return `${String(record.data.scopeType)} ${String(record.data.scopeId)} ${role}`;
  }

  /**
   * What the preview says of a schedule record the role's policy would refuse, or null: the
   * principal, role, and each rule broken.
   */
  caution(record: ResourceRecord): string | null {
    const level = LEVELS[record.type];
    if (!level || record.data.assignmentType === 'Activated') return null;
    const role = String(record.data.roleDefinitionId);
    const rules = this.rulesOfPolicy.get(this.policyOfRole.get(role) ?? '');
    if (!rules) return null;
    const refusals = refusedBy(rules, level, record.data);
    if (refusals.length === 0) return null;
    return `The PIM policy of role ${role} refuses the ${level === 'Assignment' ? 'active assignment' : 'eligibility'} of ${String(record.data.principalId)} (Graph answers RoleAssignmentRequestPolicyValidationFailed): ${refusals.join('; ')}. Change the schedule or the role's settings, then restore again`;
  }
}
