import type { CheckOutcome } from '@libs/compliance/compliance-types.js';
import { ResourceSample } from '@libs/compliance/resource-sample.js';
import { GLOBAL_ADMINISTRATOR, HIGHLY_PRIVILEGED_ROLES } from './conditional-access.js';
import { type EntraCheck, member } from './entra-outcomes.js';
import { countedHoldersCheck, PRIVILEGED, privilegedScheduleCheck, shown } from './role-checks.js';

/**
 * MS.AAD.7.2v1: privileged users SHALL be provisioned with finer-grained roles instead of Global
 * Administrator. ScubaGear's rule (AADConfig.rego): 7.1 holds (2 to 8 Global Administrators, the
 * framework's `min`/`max` when it gives them) and the Global Administrators are no more than the
 * privileged users without it (its "least privilege score", GAs / other privileged users, at most
 * 1). Holders are counted actively or eligible, a role-assignable group by its members.
 */
const leastPrivilege = countedHoldersCheck({
  key: 'admins.least_privilege',
  id: 'entra.admins.least_privilege',
  policy: 'MS.AAD.7.2v1',
  title: 'Privileged users hold finer-grained roles rather than Global Administrator',
  remediation:
    'Give administrators the least privileged role their work needs (User, Exchange, SharePoint... Administrator) and keep Global Administrator for two to eight accounts.',
  roles: PRIVILEGED,
  judge(holders, groups, { min, max }): CheckOutcome {
    const globalName = HIGHLY_PRIVILEGED_ROLES[GLOBAL_ADMINISTRATOR];
    const sample = new ResourceSample();
    let globalAdmins = 0;
    let others = 0;
    for (const [principal, holder] of holders.byPrincipal) {
      const size = groups.size(principal);
      if (holder.roles.has(globalName)) {
        globalAdmins += size;
        sample.add(principal, null, { ...shown(holder), users: size });
      } else others += size;
    }
    const countGood = globalAdmins >= min && globalAdmins <= max;
    return {
      status: countGood && globalAdmins <= others ? 'pass' : 'fail',
      resourceType: 'role_assignment',
      resources: sample.items,
      total: sample.total,
      pointers: ['/principalId', '/roleDefinitionId'],
      observed: { globalAdmins, otherPrivilegedUsers: others },
      expected: { globalAdminsAtMost: 'otherPrivilegedUsers', min, max },
      ...(countGood
        ? {}
        : { note: `MS.AAD.7.1 fails (${globalAdmins} Global Administrators, ${min} to ${max} expected).` }),
    };
  },
});

/**
 * MS.AAD.7.5v1: provisioning users to highly privileged roles SHALL NOT occur outside of a PAM
 * system. ScubaGear's rule: a role's assignment with no start date (`StartDateTime` null) was
 * made outside PIM. Here: a PIM assignment schedule of a highly privileged role whose
 * `scheduleInfo.startDateTime` is null (privilegedScheduleCheck: manual without PIM's data).
 */
const provisionedOutsidePim = privilegedScheduleCheck({
  key: 'admins.pam_provisioning',
  id: 'entra.admins.provisioned_outside_pim',
  policy: 'MS.AAD.7.5v1',
  title: 'Highly privileged roles are assigned through PIM only',
  remediation:
    'Remove highly privileged role assignments made directly (admin center, PowerShell, the roleAssignments API) and grant them again through PIM.',
  pointers: ['/roleDefinitionId', '/scheduleInfo/startDateTime'],
  expected: { assignmentsOutsidePim: 0 },
  offends: (schedule, role, id) => {
    const start = member(member(schedule, 'scheduleInfo'), 'startDateTime');
    return start === null || start === undefined ? { role, schedule: id, startDateTime: null } : undefined;
  },
});

/** Checks of how privilege is handed out (SCuBA MS.AAD.7.2, 7.5). */
export const PRIVILEGE_CHECKS: readonly EntraCheck[] = [leastPrivilege, provisionedOutsidePim];
