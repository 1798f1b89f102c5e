import { randomUUID } from 'node:crypto';

import { GraphError } from './graph-error.js';
import type { GraphObject, TenantState } from './tenant-state.js';

/**
 * Privileged Identity Management as Graph keeps it, in one place:
 * - an active assignment is both a role assignment and an assignment schedule ("The active
 *   assignment might have been made through PIM ... or directly through the role assignments
 *   API", "unifiedRoleAssignmentSchedule"); one made directly has a schedule of the same id (the
 *   real tenant's export shows `RoleAssignmentScheduleId` equal to the assignment's id), one made
 *   by a schedule request a schedule of the request's id;
 * - a user's just-in-time activation of an eligibility is an assignment schedule with
 *   `assignmentType: Activated` and a role assignment, for the activation's duration;
 * - an administrator's request (`adminAssign`, `adminUpdate`) is checked against the role's
 *   management policy: its expiration rule (`isExpirationRequired`, `maximumDuration`) and its
 *   enablement rule (`Justification`, `MultiFactorAuthentication`, which an app without a signed-in
 *   user cannot satisfy); a failed rule answers 400 `RoleAssignmentRequestPolicyValidationFailed`
 *   naming it (MicrosoftDocs/azure-docs #80426, hashicorp/terraform-provider-azuread #1450:
 *   `The following policy rules failed: ["ExpirationRule"]`).
 */

/**
 * A role assignment's id: Graph's encodes its role and principal (`lAPpYvVp...-1` in the real
 * tenant), so the same grant made again has the same id.
 */
export function roleAssignmentId(roleDefinitionId: string, principalId: string): string {
  return `${Buffer.from(`${roleDefinitionId}${principalId}`.replace(/-/g, ''), 'hex').toString('base64url')}-1`;
}

/** The same principal, role and scope. */
export function sameGrant(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return (
    a.principalId === b.principalId &&
    a.roleDefinitionId === b.roleDefinitionId &&
    (a.directoryScopeId ?? '/') === (b.directoryScopeId ?? '/')
  );
}

const PERMANENT = { type: 'noExpiration', endDateTime: null, duration: null };

/** The assignment schedule Graph lists for an active assignment: `Assigned`, or `Activated` for a JIT one. */
export function assignmentSchedule(
  id: string,
  grant: Record<string, unknown>,
  extra: {
    createdUsing: string;
    assignmentType: 'Assigned' | 'Activated';
    scheduleInfo?: unknown;
    now?: string;
  },
): GraphObject {
  const now = extra.now ?? new Date().toISOString();
  return {
    id,
    principalId: grant.principalId,
    roleDefinitionId: grant.roleDefinitionId,
    directoryScopeId: grant.directoryScopeId ?? '/',
    appScopeId: grant.appScopeId ?? null,
    createdUsing: extra.createdUsing,
    createdDateTime: now,
    modifiedDateTime: null,
    status: 'Provisioned',
    assignmentType: extra.assignmentType,
    memberType: 'Direct',
    scheduleInfo: extra.scheduleInfo ?? { startDateTime: now, recurrence: null, expiration: PERMANENT },
  };
}

/** The role assignment of an active grant ("unifiedRoleAssignment"), its id from the grant. */
export function roleAssignment(grant: Record<string, unknown>): GraphObject {
  return {
    id: roleAssignmentId(String(grant.roleDefinitionId), String(grant.principalId)),
    principalId: grant.principalId,
    roleDefinitionId: grant.roleDefinitionId,
    directoryScopeId: grant.directoryScopeId ?? (grant.appScopeId === undefined ? '/' : null),
    appScopeId: grant.appScopeId ?? null,
    condition: null,
  };
}

/** Removes the role assignment of a grant with its assignment schedules (an active grant's two faces). */
export function removeActiveGrant(state: TenantState, grant: Record<string, unknown>): void {
  for (const collection of ['roleAssignments', 'roleAssignmentSchedules'] as const)
    for (const [id, object] of state.collection(collection))
      if (sameGrant(object, grant)) {
        state.collection(collection).delete(id);
        state.changes.object(collection, id, 'deleted');
      }
}

/**
 * Makes the seeded tenant's two faces of every active grant agree: a schedule for each role
 * assignment made directly (its id), a role assignment for each assigned schedule.
 */
export function reconcileActiveGrants(state: TenantState): void {
  const schedules = state.collection('roleAssignmentSchedules');
  const assignments = state.collection('roleAssignments');
  for (const assignment of [...assignments.values()])
    if (![...schedules.values()].some((schedule) => sameGrant(schedule, assignment)))
      schedules.set(
        assignment.id,
        assignmentSchedule(assignment.id, assignment, {
          createdUsing: assignment.id,
          assignmentType: 'Assigned',
          now: '2024-01-01T00:00:00Z',
        }),
      );
  for (const schedule of [...schedules.values()])
    if (![...assignments.values()].some((assignment) => sameGrant(assignment, schedule))) {
      const assignment = roleAssignment(schedule);
      assignments.set(assignment.id, assignment);
    }
}

/** ISO 8601 duration `P[nD]T[nH][nM][nS]` in milliseconds (the rules' `maximumDuration`), or undefined. */
function durationMs(value: unknown): number | undefined {
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(String(value ?? ''));
  if (!match) return undefined;
  const [, d = '0', h = '0', m = '0', s = '0'] = match;
  return ((Number(d) * 24 + Number(h)) * 60 + Number(m)) * 60_000 + Number(s) * 1000;
}

/** The rules of the policy governing a role ("roleManagementPolicyAssignment"), or none. */
export function policyRules(state: TenantState, roleDefinitionId: string): GraphObject[] {
  const assignment = [...state.collection('roleManagementPolicyAssignments').values()].find(
    (candidate) => candidate.roleDefinitionId === roleDefinitionId,
  );
  const policy = assignment && state.collection('roleManagementPolicies').get(String(assignment.policyId));
  return (policy?.rules ?? []) as GraphObject[];
}

/**
 * The rules an administrator's request breaks: `ExpirationRule` (no end where one is required,
 * or longer than `maximumDuration`), `JustificationRule`, `MfaRule`.
 * @param level `Eligibility` or `Assignment`, the rules' target level
 */
export function brokenRules(
  state: TenantState,
  level: 'Eligibility' | 'Assignment',
  request: Record<string, unknown>,
): string[] {
  const rules = policyRules(state, String(request.roleDefinitionId));
  const rule = (id: string) => rules.find((candidate) => candidate.id === id);
  const broken: string[] = [];
  const expiration = rule(`Expiration_Admin_${level}`);
  const schedule = (request.scheduleInfo ?? {}) as Record<string, unknown>;
  const ends = (schedule.expiration ?? PERMANENT) as Record<string, unknown>;
  if (expiration) {
    const maximum = durationMs(expiration.maximumDuration);
    const start = Date.parse(String(schedule.startDateTime ?? new Date().toISOString()));
    const end =
      ends.type === 'afterDateTime'
        ? Date.parse(String(ends.endDateTime))
        : ends.type === 'afterDuration'
          ? start + (durationMs(ends.duration) ?? 0)
          : undefined;
    // A role that allows permanent assignments sets no maximum ("Allow permanent ... assignment").
    if (
      expiration.isExpirationRequired === true &&
      (end === undefined || (maximum !== undefined && end - start > maximum))
    )
      broken.push('ExpirationRule');
  }
  const enabled = (rule(`Enablement_Admin_${level}`)?.enabledRules ?? []) as string[];
  if (enabled.includes('Justification') && !request.justification) broken.push('JustificationRule');
  if (enabled.includes('MultiFactorAuthentication')) broken.push('MfaRule');
  return broken;
}

/** @throws GraphError 400 `RoleAssignmentRequestPolicyValidationFailed` when a rule is broken */
export function assertPolicyAllows(
  state: TenantState,
  level: 'Eligibility' | 'Assignment',
  request: Record<string, unknown>,
): void {
  const broken = brokenRules(state, level, request);
  if (broken.length > 0)
    throw new GraphError(
      400,
      'RoleAssignmentRequestPolicyValidationFailed',
      `The following policy rules failed: ${JSON.stringify(broken)}`,
    );
}

/**
 * What a user's activation of an eligible role makes (`selfActivate`, delegated only: an app
 * cannot activate): an `Activated` assignment schedule and a role assignment, for `hours`.
 * @throws Error when the principal has no eligibility for the role at the directory's scope
 */
export function activate(
  state: TenantState,
  principalId: string,
  roleDefinitionId: string,
  hours: number,
): GraphObject {
  const grant = { principalId, roleDefinitionId, directoryScopeId: '/' };
  const eligibility = [...state.collection('roleEligibilitySchedules').values()].find((schedule) =>
    sameGrant(schedule, grant),
  );
  if (!eligibility) throw new Error(`${principalId} is not eligible for role ${roleDefinitionId}`);
  const now = new Date();
  const schedule = assignmentSchedule(randomUUID(), grant, {
    createdUsing: eligibility.id,
    assignmentType: 'Activated',
    now: now.toISOString(),
    scheduleInfo: {
      startDateTime: now.toISOString(),
      recurrence: null,
      expiration: { type: 'afterDuration', endDateTime: null, duration: `PT${hours}H` },
    },
  });
  state.create('roleAssignmentSchedules', schedule);
  state.create('roleAssignments', roleAssignment(grant));
  return schedule;
}
