import type { CheckOutcome, CheckParams } from '@libs/compliance/compliance-types.js';
import { ResourceSample } from '@libs/compliance/resource-sample.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { GLOBAL_ADMINISTRATOR, HIGHLY_PRIVILEGED_ROLES } from './conditional-access.js';
import {
  type EntraCheck,
  grantsOf,
  manualOutcome,
  member,
  offendingOutcome,
  outsideBackup,
} from './entra-outcomes.js';

/** Role grants: active assignments and PIM eligibilities, both of which make a role holder. */
const GRANTS = ['role_assignment', 'role_eligibility_schedule'] as const;
const GRANT_FIELDS = ['principalId', 'roleDefinitionId'];

/** One principal's roles, from its active assignments and eligibilities. */
interface Holder {
  roles: Set<string>;
  via: Set<string>;
}

/** Collects who holds which role (`onlyRoles`: only those), from role assignments and eligibilities. */
class RoleHolders {
  readonly byPrincipal = new Map<string, Holder>();

  constructor(private readonly onlyRoles?: ReadonlySet<string>) {}

  /** Takes a role_assignment or role_eligibility_schedule record; false for other types. */
  add({ type, data }: ResourceRecord): boolean {
    if (type !== 'role_assignment' && type !== 'role_eligibility_schedule') return false;
    const role = String(data.roleDefinitionId);
    if (this.onlyRoles && !this.onlyRoles.has(role)) return true;
    const principal = String(data.principalId);
    const holder = this.byPrincipal.get(principal) ?? { roles: new Set(), via: new Set() };
    holder.roles.add(HIGHLY_PRIVILEGED_ROLES[role] ?? role);
    holder.via.add(type === 'role_assignment' ? 'active' : 'eligible');
    this.byPrincipal.set(principal, holder);
    return true;
  }
}

export const PRIVILEGED = new Set(Object.keys(HIGHLY_PRIVILEGED_ROLES));
export const shown = (holder: Holder) => ({ roles: [...holder.roles], via: [...holder.via] });

/**
 * Role-assignable groups (`isAssignableToRole`) and how many users each holds, so that a group
 * holding a role counts as its members (a user in two such groups counts twice: a ceiling).
 * Group records come before memberships in a backup (dependency order).
 */
class AssignableGroups {
  static readonly reads = ['group', 'group_membership'] as const;
  static readonly fields = { group: ['isAssignableToRole'], group_membership: ['memberType'] };
  readonly #groups = new Set<string>();
  readonly #members = new Map<string, number>();

  /** Takes a group or group_membership record. */
  add(record: ResourceRecord): void {
    if (record.type === 'group') {
      if (record.data.isAssignableToRole === true) this.#groups.add(record.id);
      return;
    }
    if (this.#groups.size === 0) return;
    const groupId = record.id.slice(0, record.id.indexOf(':'));
    if (this.#groups.has(groupId) && member(record.data, 'memberType') !== 'group')
      this.#members.set(groupId, (this.#members.get(groupId) ?? 0) + 1);
  }

  /**
   * Whether memberships are still needed: groups come before memberships in a backup, so with
   * no role-assignable group among them no membership counts (CheckRun.skips).
   */
  skips(type: string): boolean {
    return type === 'group_membership' && this.#groups.size === 0;
  }

  isGroup(principal: string): boolean {
    return this.#groups.has(principal);
  }

  /** The users a principal stands for: a role-assignable group's members, else 1. */
  size(principal: string): number {
    return this.#groups.has(principal) ? (this.#members.get(principal) ?? 0) : 1;
  }
}

/** What a check counting role holders reads: grants, and role-assignable groups with their members. */
const COUNTED_HOLDERS = {
  reads: [...AssignableGroups.reads, ...GRANTS],
  fields: {
    ...AssignableGroups.fields,
    role_assignment: GRANT_FIELDS,
    role_eligibility_schedule: GRANT_FIELDS,
  },
  grants: grantsOf([...AssignableGroups.reads, ...GRANTS]),
};

/** A check that counts the holders of `roles`, a role-assignable group by its members. */
interface CountedHoldersDefinition extends Omit<EntraCheck, 'reads' | 'fields' | 'grants' | 'start'> {
  roles: ReadonlySet<string>;
  /** the outcome, with the framework's bounds on Global Administrators (default 2 to 8) */
  judge(holders: RoleHolders, groups: AssignableGroups, bounds: { min: number; max: number }): CheckOutcome;
}

/** A check over who holds `roles`, actively or eligible, groups counted by their members. */
export function countedHoldersCheck(definition: CountedHoldersDefinition): EntraCheck {
  const { roles, judge, ...check } = definition;
  return {
    ...check,
    ...COUNTED_HOLDERS,
    start(params: CheckParams) {
      const groups = new AssignableGroups();
      const holders = new RoleHolders(roles);
      return {
        onRecord(record: ResourceRecord) {
          if (!holders.add(record)) groups.add(record);
        },
        skips: (type: string) => groups.skips(type),
        finish: () => judge(holders, groups, { min: Number(params.min ?? 2), max: Number(params.max ?? 8) }),
      };
    },
  };
}

/**
 * MS.AAD.7.1v1: between 2 and 8 users SHALL hold Global Administrator, actively or eligible
 * (the framework's `min`/`max` when it gives them). A role-assignable group holding the role
 * counts its members (a user in both counts twice: a ceiling).
 */
const globalAdminCount = countedHoldersCheck({
  key: 'admins.super_admin_count',
  id: 'entra.admins.global_admin_count',
  policy: 'MS.AAD.7.1v1',
  title: 'Global Administrators: enough for break-glass, few enough to control',
  remediation:
    'Keep at least two Global Administrators (emergency access accounts among them) and move the rest to finer-grained roles.',
  roles: new Set([GLOBAL_ADMINISTRATOR]),
  judge(holders, groups, { min, max }) {
    const sample = new ResourceSample();
    let count = 0;
    for (const [principal, holder] of holders.byPrincipal) {
      const size = groups.size(principal);
      count += size;
      sample.add(principal, null, {
        ...shown(holder),
        globalAdmins: size,
        ...(groups.isGroup(principal) ? { group: true } : {}),
      });
    }
    return {
      status: count >= min && count <= max ? 'pass' : 'fail',
      resourceType: 'role_assignment',
      resources: sample.items,
      total: sample.total,
      pointers: ['/principalId', '/roleDefinitionId'],
      observed: { globalAdmins: count },
      expected: { min, max },
      ...(count < min ? { note: 'Fewer Global Administrators than break-glass needs.' } : {}),
    };
  },
});

/**
 * MS.AAD.7.3v1: privileged users SHALL be provisioned cloud-only: no holder of a highly
 * privileged role is synchronised from on-premises (`onPremisesImmutableId` or
 * `onPremisesSyncEnabled`).
 */
const cloudOnlyAdmins: EntraCheck = {
  key: 'admins.cloud_only',
  id: 'entra.admins.cloud_only',
  policy: 'MS.AAD.7.3v1',
  title: 'Privileged users are cloud-only accounts',
  remediation:
    'Give each privileged user a cloud-only account (not synchronised from Active Directory) and move the roles to it.',
  reads: ['user', ...GRANTS],
  fields: {
    user: ['onPremisesImmutableId', 'onPremisesSyncEnabled'],
    role_assignment: GRANT_FIELDS,
    role_eligibility_schedule: GRANT_FIELDS,
  },
  grants: grantsOf(['user', ...GRANTS]),
  start() {
    const synced = new Map<string, { name: string | null; immutableId: unknown }>();
    const holders = new RoleHolders(PRIVILEGED);
    return {
      onRecord(record: ResourceRecord) {
        if (holders.add(record)) return;
        const { onPremisesImmutableId: immutableId, onPremisesSyncEnabled: syncEnabled } = record.data;
        if ((immutableId !== null && immutableId !== undefined) || syncEnabled === true)
          synced.set(record.id, { name: record.name, immutableId: immutableId ?? null });
      },
      finish() {
        const sample = new ResourceSample();
        for (const [principal, holder] of holders.byPrincipal) {
          const user = synced.get(principal);
          if (user)
            sample.add(principal, user.name, { ...shown(holder), onPremisesImmutableId: user.immutableId });
        }
        return offendingOutcome(
          'user',
          ['/onPremisesImmutableId', '/onPremisesSyncEnabled'],
          { syncedPrivilegedUsers: 0 },
          sample,
          {
            privilegedPrincipals: holders.byPrincipal.size,
          },
        );
      },
    };
  },
};

/** Disabled accounts (`accountEnabled` false) holding any directory role, actively or eligible. */
const disabledAdmins: EntraCheck = {
  key: 'admins.deactivated_with_roles',
  id: 'entra.admins.disabled_with_roles',
  policy: 'CIS Controls 6.2',
  title: 'Disabled accounts hold no directory roles',
  remediation: 'Remove the role assignments and eligibilities of disabled accounts.',
  reads: ['user', ...GRANTS],
  fields: {
    user: ['accountEnabled'],
    role_assignment: GRANT_FIELDS,
    role_eligibility_schedule: GRANT_FIELDS,
  },
  grants: grantsOf(['user', ...GRANTS]),
  start() {
    const disabled = new Map<string, string | null>();
    const holders = new RoleHolders();
    return {
      onRecord(record: ResourceRecord) {
        if (holders.add(record)) return;
        if (record.data.accountEnabled === false) disabled.set(record.id, record.name);
      },
      finish() {
        const sample = new ResourceSample();
        for (const [principal, holder] of holders.byPrincipal)
          if (disabled.has(principal)) sample.add(principal, disabled.get(principal)!, shown(holder));
        return offendingOutcome(
          'user',
          ['/accountEnabled', 'role_assignment /principalId'],
          { roles: 0 },
          sample,
          {
            disabledUsers: disabled.size,
          },
        );
      },
    };
  },
};

/** Whether a PIM schedule never ends (`scheduleInfo.expiration`). */
function permanent(schedule: Record<string, unknown>): boolean {
  const expiration = member(member(schedule, 'scheduleInfo'), 'expiration');
  return member(expiration, 'type') === 'noExpiration' || !member(expiration, 'endDateTime');
}

/** What a check over the PIM assignment schedules of highly privileged roles is made of. */
interface ScheduleCheckDefinition extends Omit<EntraCheck, 'reads' | 'fields' | 'grants' | 'start'> {
  pointers: string[];
  /** the expected count of offenders, named (`{ permanentActiveAssignments: 0 }`) */
  expected: Record<string, number>;
  /** why one schedule of a highly privileged role offends (its evidence), or undefined */
  offends(schedule: Record<string, unknown>, role: string, id: string): Record<string, unknown> | undefined;
}

/**
 * A check over the PIM assignment schedules (`role_assignment_schedule`) of highly privileged
 * roles, the offending ones listed by principal. Privileged role assignments without any schedule
 * in the backup mean PIM's data was not collected (no Entra ID P2, or the permission): manual.
 */
export function privilegedScheduleCheck(definition: ScheduleCheckDefinition): EntraCheck {
  const { pointers, expected, offends, ...check } = definition;
  return {
    ...check,
    reads: ['role_assignment', 'role_assignment_schedule'],
    fields: { role_assignment: ['roleDefinitionId'] },
    grants: grantsOf(['role_assignment', 'role_assignment_schedule']),
    start() {
      let privilegedAssignments = 0;
      let schedules = 0;
      const sample = new ResourceSample();
      return {
        onRecord({ type, id, data }: ResourceRecord) {
          const role = String(data.roleDefinitionId);
          if (!PRIVILEGED.has(role)) return;
          if (type === 'role_assignment') {
            privilegedAssignments++;
            return;
          }
          schedules++;
          const evidence = offends(data, HIGHLY_PRIVILEGED_ROLES[role], id);
          if (evidence) sample.add(String(data.principalId), null, evidence);
        },
        finish() {
          if (schedules === 0 && privilegedAssignments > 0)
            return manualOutcome(
              'role_assignment_schedule',
              `The backup holds ${privilegedAssignments} highly privileged role assignments but no PIM assignment schedule: PIM needs Entra ID P2, and the backup RoleAssignmentSchedule.Read.Directory.`,
            );
          return offendingOutcome('role_assignment_schedule', pointers, expected, sample, {
            privilegedSchedules: schedules,
          });
        },
      };
    },
  };
}

/**
 * MS.AAD.7.4v1: permanent active assignment of highly privileged roles SHALL NOT be allowed:
 * every active (`assignmentType` `Assigned`) PIM schedule of such a role ends.
 */
const permanentAssignments = privilegedScheduleCheck({
  key: 'admins.permanent_assignments',
  id: 'entra.admins.permanent_assignments',
  policy: 'MS.AAD.7.4v1',
  title: 'No permanent active assignment of highly privileged roles',
  remediation:
    'Make highly privileged roles eligible (activated just in time with PIM) or time-bound; keep permanent ones for emergency access accounts only.',
  pointers: ['/assignmentType', '/roleDefinitionId', '/scheduleInfo/expiration'],
  expected: { permanentActiveAssignments: 0 },
  offends: (schedule, role, id) =>
    schedule.assignmentType === 'Assigned' && permanent(schedule)
      ? { role, schedule: id, expiration: member(member(schedule, 'scheduleInfo'), 'expiration') }
      : undefined,
});

const PIM_SETTINGS_NOTE =
  "PIM role settings (unifiedRoleManagementPolicy rules, GET /policies/roleManagementPolicies?$filter=scopeId eq '/' and scopeType eq 'DirectoryRole') are not collected by the backup: they need RoleManagementPolicy.Read.Directory (and Entra ID P2). Review them in PIM > Microsoft Entra roles > Settings.";

/** MS.AAD.7.6v1: activation of Global Administrator SHALL require approval. */
const activationApproval = outsideBackup({
  key: 'admins.activation_approval',
  id: 'entra.admins.activation_approval',
  policy: 'MS.AAD.7.6v1',
  title: 'Activating Global Administrator requires approval',
  remediation: 'In PIM, require approval to activate Global Administrator, with approvers named.',
  resourceType: 'role_management_policy',
  note: PIM_SETTINGS_NOTE,
});

/** MS.AAD.7.7v1: eligible and active highly privileged role assignments SHALL trigger an alert. */
const assignmentAlerts = outsideBackup({
  key: 'admins.assignment_alerts',
  id: 'entra.admins.assignment_alerts',
  policy: 'MS.AAD.7.7v1',
  title: 'Assigning a highly privileged role sends an alert',
  remediation:
    'In PIM role settings, send notifications to administrators on eligible and active assignments of each highly privileged role.',
  resourceType: 'role_management_policy',
  note: PIM_SETTINGS_NOTE,
});

/** MS.AAD.7.8v1: user activation of Global Administrator SHALL trigger an alert. */
const activationAlerts = outsideBackup({
  key: 'admins.activation_alerts',
  id: 'entra.admins.activation_alerts',
  policy: 'MS.AAD.7.8v1',
  title: 'Activating Global Administrator sends an alert',
  remediation:
    'In PIM role settings of Global Administrator, notify administrators when the role is activated.',
  resourceType: 'role_management_policy',
  note: PIM_SETTINGS_NOTE,
});

/** MS.AAD.7.9v1: user activation of other highly privileged roles SHOULD trigger an alert. */
const otherActivationAlerts = outsideBackup({
  key: 'admins.other_activation_alerts',
  id: 'entra.admins.other_activation_alerts',
  policy: 'MS.AAD.7.9v1',
  title: 'Activating another highly privileged role sends an alert',
  remediation:
    'In the PIM role settings of each highly privileged role other than Global Administrator, notify administrators by e-mail when the role is activated.',
  resourceType: 'role_management_policy',
  note: PIM_SETTINGS_NOTE,
});

/** Checks over directory roles and their holders (SCuBA MS.AAD.7): streamed, whatever the tenant's size. */
export const ROLE_CHECKS: readonly EntraCheck[] = [
  globalAdminCount,
  cloudOnlyAdmins,
  disabledAdmins,
  permanentAssignments,
  activationApproval,
  assignmentAlerts,
  activationAlerts,
  otherActivationAlerts,
];
