import type { BackupContext, Check, CheckParams } from '@libs/compliance/compliance-types.js';
import { ResourceSample } from '@libs/compliance/resource-sample.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { judgeEach, num, offenders } from './okta-outcomes.js';

const DAY_MS = 24 * 3_600_000;

/** User statuses of an account someone can sign in with (Users API `status`). */
const ENABLED = new Set(['ACTIVE', 'PASSWORD_EXPIRED', 'LOCKED_OUT', 'RECOVERY']);
/** Statuses of a user whose access should be gone: deactivated or suspended. */
const OFFBOARDED = new Set(['DEPROVISIONED', 'SUSPENDED']);

/** The user id of an `<appId>:<userId>` or `<userId|groupId>:<assignmentId>` record. */
const second = (id: string) => id.slice(id.indexOf(':') + 1);
const first = (id: string) => id.slice(0, id.indexOf(':'));

/**
 * Enabled users whose last sign-in (`lastLogin`; never signed in: `activated`, else `created`)
 * is more than `maxInactiveDays` before the backup was collected: inactivity as of the backup,
 * so the finding holds for that backup whenever it is asked.
 */
const inactiveUsers: Check = {
  key: 'users.inactive',
  id: 'okta.users.inactive',
  title: 'Inactive accounts are disabled',
  remediation:
    'Deactivate or suspend users who have not signed in within the period (or automate it with Okta Workflows).',
  reads: ['user'],
  fields: { user: ['status', 'lastLogin', 'activated', 'created'] },
  start(params: CheckParams, context: BackupContext) {
    const limitDays = num(params, 'maxInactiveDays');
    const cutoff = Date.parse(context.collectedAt) - limitDays * DAY_MS;
    const sample = new ResourceSample();
    let enabled = 0;
    return {
      onRecord({ id, name, data }: ResourceRecord) {
        if (!ENABLED.has(String(data.status))) return;
        enabled++;
        const last = (data.lastLogin ?? data.activated ?? data.created) as string | null | undefined;
        if (typeof last === 'string' && Date.parse(last) < cutoff)
          sample.add(id, name, {
            status: data.status,
            lastLogin: data.lastLogin ?? null,
            created: data.created,
          });
      },
      finish: () =>
        offenders(
          'user',
          ['/status', '/lastLogin', '/activated', '/created'],
          { maxInactiveDays: limitDays, asOf: context.collectedAt },
          sample,
          { enabledUsers: enabled },
        ),
    };
  },
};

/** Deactivated or suspended users still assigned to apps (`app_user_assignment` `<appId>:<userId>`). */
const deprovisionedAccess: Check = {
  key: 'users.deprovisioned_access',
  id: 'okta.users.deprovisioned_access',
  title: 'Deactivated and suspended users hold no app assignments',
  remediation:
    'Remove the app assignments of deactivated and suspended users (and of the groups they stay in).',
  reads: ['user', 'app_user_assignment'],
  fields: { user: ['status'], app_user_assignment: [] },
  start() {
    const offboarded = new Map<string, { name: string | null; status: unknown }>();
    const assigned = new Map<string, number>();
    return {
      onRecord({ type, id, name, data }: ResourceRecord) {
        if (type === 'user') {
          if (OFFBOARDED.has(String(data.status))) offboarded.set(id, { name, status: data.status });
        } else {
          const userId = second(id);
          if (offboarded.has(userId)) assigned.set(userId, (assigned.get(userId) ?? 0) + 1);
        }
      },
      finish() {
        const sample = new ResourceSample();
        for (const [userId, count] of assigned) {
          const user = offboarded.get(userId)!;
          sample.add(userId, user.name, { status: user.status, appAssignments: count });
        }
        return offenders(
          'user',
          ['/status', 'app_user_assignment <appId>:<userId>'],
          { appAssignments: 0 },
          sample,
          { offboardedUsers: offboarded.size },
        );
      },
    };
  },
};

/** Deactivated or suspended users still holding admin roles (`admin_role_assignment` `<userId>:<id>`). */
const deactivatedAdmins: Check = {
  key: 'admins.deactivated_with_roles',
  id: 'okta.admins.deactivated_with_roles',
  title: 'Deactivated and suspended users hold no admin roles',
  remediation: 'Remove the admin role assignments of deactivated and suspended users.',
  reads: ['user', 'admin_role_assignment'],
  fields: { user: ['status'], admin_role_assignment: ['type'] },
  start() {
    const offboarded = new Map<string, { name: string | null; status: unknown }>();
    const sample = new ResourceSample();
    return {
      onRecord({ type, id, name, data }: ResourceRecord) {
        if (type === 'user') {
          if (OFFBOARDED.has(String(data.status))) offboarded.set(id, { name, status: data.status });
          return;
        }
        const user = offboarded.get(first(id));
        if (user) sample.add(first(id), user.name, { status: user.status, role: data.type, assignment: id });
      },
      finish: () =>
        offenders(
          'admin_role_assignment',
          ['/type', '/assignmentType', 'user /status'],
          { roles: 0 },
          sample,
        ),
    };
  },
};

/** Logins that name a role or a team rather than a person (heuristic). */
const SHARED_LOGIN =
  /^(admin|administrator|shared|generic|test|testuser|service|svc|team|info|support|helpdesk|ops|root|it)([._+-]|\d|@)/i;

const sharedAccounts: Check = {
  key: 'users.shared_accounts',
  id: 'okta.users.shared_accounts',
  title: 'No shared or generic accounts',
  remediation:
    'Give each person an account of their own; turn generic accounts into service apps or remove them.',
  reads: ['user'],
  fields: { user: ['status', 'profile.login'] },
  start() {
    const sample = new ResourceSample();
    return {
      onRecord({ id, name, data }: ResourceRecord) {
        const login = (data.profile as Record<string, unknown> | undefined)?.login;
        if (data.status !== 'DEPROVISIONED' && typeof login === 'string' && SHARED_LOGIN.test(login))
          sample.add(id, name, { login, status: data.status });
      },
      finish: () => ({
        ...offenders('user', ['/profile/login'], { genericLogins: 0 }, sample, {}, 'warning'),
        note: 'Heuristic: logins beginning admin, shared, test, service, support... A reviewer confirms each.',
      }),
    };
  },
};

/** Share of app assignments made to users directly (`scope` `USER`) rather than through groups. */
const directAssignments: Check = {
  key: 'access.direct_assignments',
  id: 'okta.access.direct_assignments',
  title: 'Apps are assigned through groups',
  remediation: 'Assign apps to groups (or group rules) instead of individual users.',
  reads: ['app_user_assignment'],
  fields: { app_user_assignment: ['scope'] },
  start(params: CheckParams) {
    const limit = num(params, 'maxDirectShare');
    const perApp = new Map<string, number>();
    let all = 0;
    return {
      onRecord({ id, data }: ResourceRecord) {
        all++;
        if (data.scope === 'USER') perApp.set(first(id), (perApp.get(first(id)) ?? 0) + 1);
      },
      finish() {
        const direct = [...perApp.values()].reduce((a, b) => a + b, 0);
        const share = all === 0 ? 0 : direct / all;
        const judged =
          all === 0
            ? []
            : [
                {
                  record: { id: 'app_user_assignment', name: 'All app user assignments' },
                  observed: { direct, all, share: Math.round(share * 1000) / 1000 },
                  ok: share <= limit,
                },
              ];
        const outcome = judgeEach(
          'app_user_assignment',
          ['/scope'],
          { maxDirectShare: limit },
          judged,
          'The backup holds no app assignment.',
        );
        const top = [...perApp].sort((a, b) => b[1] - a[1]).slice(0, 20);
        return outcome.status === 'fail'
          ? {
              ...outcome,
              resources: top.map(([appId, count]) => ({
                id: appId,
                name: null,
                observed: { directAssignments: count },
              })),
              total: perApp.size,
              observed: { direct, all, share },
            }
          : outcome;
      },
    };
  },
};

/**
 * Super administrators: users holding SUPER_ADMIN themselves, plus the members of groups that
 * hold it (counted from `group_membership`, so a user in both counts twice: a ceiling).
 */
const superAdminCount: Check = {
  key: 'admins.super_admin_count',
  id: 'okta.admins.super_admin_count',
  title: 'Super administrators: enough for break-glass, few enough to control',
  remediation:
    'Keep at least two super administrators (one a break-glass account) and move the rest to narrower roles.',
  reads: ['group_membership', 'admin_role_assignment'],
  fields: { group_membership: [], admin_role_assignment: ['type', 'assignmentType'] },
  start(params: CheckParams) {
    const members = new Map<string, number>();
    const holders = new ResourceSample();
    let count = 0;
    return {
      onRecord({ type, id, data }: ResourceRecord) {
        if (type === 'group_membership') {
          members.set(first(id), (members.get(first(id)) ?? 0) + 1);
          return;
        }
        if (data.type !== 'SUPER_ADMIN') return;
        const owner = first(id);
        const size = data.assignmentType === 'GROUP' ? (members.get(owner) ?? 0) : 1;
        count += size;
        holders.add(owner, null, { assignmentType: data.assignmentType, superAdmins: size, assignment: id });
      },
      finish() {
        const [min, max] = [num(params, 'min'), num(params, 'max')];
        return {
          status: count >= min && count <= max ? 'pass' : 'fail',
          resourceType: 'admin_role_assignment',
          resources: holders.items,
          total: holders.total,
          pointers: ['/type', '/assignmentType'],
          observed: { superAdmins: count },
          expected: { min, max },
          ...(count < min ? { note: 'Fewer super administrators than break-glass needs.' } : {}),
        };
      },
    };
  },
};

/** Checks over users, their app assignments and admin roles: streamed, whatever the org's size. */
export const DIRECTORY_CHECKS: readonly Check[] = [
  inactiveUsers,
  deprovisionedAccess,
  deactivatedAdmins,
  sharedAccounts,
  directAssignments,
  superAdminCount,
];
