import { ProviderAuthError, ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { GraphApiClient } from '@libs/providers/entra/graph-api-client.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { isDeepStrictEqual } from 'node:util';

const GLOBAL_ADMINISTRATOR = '62e90394-69f5-4237-9190-012177145e10';
const PRIVILEGED_AUTHENTICATION_ADMINISTRATOR = '7be44c8a-adaf-4e2a-84d6-ab2649e08a13';
const USER_ADMINISTRATOR = 'fe930be7-5e62-47db-91af-98c3a49a38b1';

/**
 * Built-in roles whose holders a User Administrator may act on as well ("Privileged roles and
 * permissions in Microsoft Entra ID", Who can perform sensitive actions), by template id: Helpdesk
 * Administrator, Password Administrator, User Administrator, Directory Readers, Global Reader,
 * Guest Inviter, Message Center Reader, Reports Reader.
 */
const LIMITED_ADMIN_ROLES: ReadonlySet<string> = new Set([
  '729827e3-9c14-49f7-bb1b-9608f156bbb8',
  '966707d0-3269-4727-9be2-8c3a10f19b9d',
  USER_ADMINISTRATOR,
  '88d8e3e3-8f55-4a1e-953a-9b9898b8876b',
  'f2ef992c-3afb-46b9-b7cf-a126ee74c451',
  '95e79109-95c0-4d8e-aee3-d01accf2d47b',
  '790c1fb9-7f7d-4f88-86a1-ef1f95c05c1b',
  '4a5d8f65-41da-4de4-8968-e035b65339cf',
]);

/**
 * The user properties whose change is a sensitive action (Who can perform sensitive actions;
 * "Update user": "sensitive user properties, such as accountEnabled, mobilePhone, and otherMails").
 */
const SENSITIVE = ['accountEnabled', 'businessPhones', 'mobilePhone', 'otherMails', 'userPrincipalName'];

/** A user holding built-in administrator roles, and whether the restore app may act on it. */
interface Target {
  name: string;
  /** its sensitive properties as Graph holds them now */
  live: Record<string, unknown>;
  roles: string[];
  allowed: boolean;
  /** the roles the app would need, by name */
  needs: string;
}

/**
 * Users holding built-in administrator roles, whose sensitive properties (accountEnabled, phones,
 * other e-mails, password, user principal name) an app-only write may change, and whom it may
 * delete, only when the app itself holds a role that may act on them: "In app-only scenarios,
 * the app must be assigned a higher privileged administrator role as indicated in Who can perform
 * sensitive actions" (learn.microsoft.com/graph/api/user-update, user-delete;
 * learn.microsoft.com/entra/identity/role-based-access-control/privileged-roles-permissions):
 * Privileged Authentication Administrator or Global Administrator for any administrator, User
 * Administrator too for the limited ones above. Graph refuses the others 403
 * `Authorization_RequestDenied`. Read once a restore (`read`); the preview names each target
 * (`notes`) and a refused write fails its item with Graph's answer and what to do (`refusal`).
 */
export class PrivilegedTargets {
  private readonly targets = new Map<string, Target>();

  /**
   * Reads the tenant-wide role assignments, the role definitions' names, the app's own roles
   * (its service principal `ownServicePrincipalId`, none when undefined) and each target's name.
   * @throws as GraphApiClient.pages
   */
  async read(
    graph: GraphApiClient,
    ownServicePrincipalId: string | undefined,
    signal?: AbortSignal,
  ): Promise<void> {
    const names = new Map<string, string>();
    const custom = new Set<string>();
    for await (const page of graph.pages({
      template: '/v1.0/roleManagement/directory/roleDefinitions',
      signal,
    }))
      for (const definition of page) {
        names.set(String(definition.id), String(definition.displayName));
        if (definition.isBuiltIn === false) custom.add(String(definition.id));
      }
    const held = new Map<string, string[]>();
    for await (const page of graph.pages({
      template: '/v1.0/roleManagement/directory/roleAssignments',
      signal,
    }))
      for (const assignment of page) {
        const role = String(assignment.roleDefinitionId);
        if (assignment.directoryScopeId !== '/' || custom.has(role)) continue;
        const principal = String(assignment.principalId);
        held.set(principal, [...(held.get(principal) ?? []), role]);
      }
    const appRoles = new Set(ownServicePrincipalId ? (held.get(ownServicePrincipalId) ?? []) : []);
    for (const [principal, roles] of held) {
      if (principal === ownServicePrincipalId) continue;
      const user = await graph.objectIfFound({
        template: '/v1.0/users/{id}',
        params: { id: principal },
        select: SENSITIVE,
        signal,
      });
      if (!user) continue; // a group or a service principal holds it
      const allowedRoles = [GLOBAL_ADMINISTRATOR, PRIVILEGED_AUTHENTICATION_ADMINISTRATOR];
      if (roles.every((role) => LIMITED_ADMIN_ROLES.has(role))) allowedRoles.push(USER_ADMINISTRATOR);
      const roleName = (role: string) => names.get(role) ?? ROLE_NAMES[role] ?? role;
      this.targets.set(principal, {
        name: String(user.userPrincipalName ?? principal),
        live: user,
        roles: roles.map(roleName),
        allowed: allowedRoles.some((role) => appRoles.has(role)),
        needs: allowedRoles.map(roleName).join(' or '),
      });
    }
  }

  /** One preview note per target: its roles, and whether the app's roles allow app-only writes to it. */
  notes(): string[] {
    return [...this.targets].map(([id, target]) =>
      target.allowed
        ? `Privileged target ${target.name} (${id}) holds ${target.roles.join(', ')}: the restore app holds a role that may act on it (${target.needs}), so Graph allows it to re-enable, change or delete this user`
        : `Privileged target ${target.name} (${id}) holds ${target.roles.join(', ')}: the restore app holds no role that may act on it (${target.needs}), so Graph refuses app-only writes to its accountEnabled, phones, other e-mails, password and sign-in name, and its deletion (403); activate the role for the restore app first (docs/restore.md "Privileged targets")`,
    );
  }

  /**
   * The record of an update of a target without the sensitive properties it has already (Graph
   * refuses a write that carries one, changed or not, when the app may not act on the target):
   * a fix of a Global Administrator's job title needs no directory role.
   */
  withoutUnchanged(record: ResourceRecord): ResourceRecord {
    const target = this.targets.get(record.id);
    if (!target) return record;
    const data = { ...record.data };
    for (const name of SENSITIVE)
      if (name in data && isDeepStrictEqual(data[name], target.live[name])) delete data[name];
    return { ...record, data };
  }

  /**
   * A write to a user Graph refused 403 as a privileged target: the item's failure, with Graph's
   * answer and the role the app lacks, instead of an error that stops the whole restore.
   * @returns `error` itself when it is not such a refusal
   */
  refusal(userId: string, error: unknown): unknown {
    const target = this.targets.get(userId);
    if (!target || target.allowed || !(error instanceof ProviderAuthError)) return error;
    return new ProviderRequestError(
      `${error.message.replace(/; grant the application permission.*$/, '')}: ${target.name} holds ${target.roles.join(', ')}, and app-only writes to it need the restore app to hold ${target.needs}`,
      403,
    );
  }
}

/** Names of the roles above, for tenants whose role definitions list omits them. */
const ROLE_NAMES: Readonly<Record<string, string>> = {
  [GLOBAL_ADMINISTRATOR]: 'Global Administrator',
  [PRIVILEGED_AUTHENTICATION_ADMINISTRATOR]: 'Privileged Authentication Administrator',
  [USER_ADMINISTRATOR]: 'User Administrator',
};
