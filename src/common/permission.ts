/**
 * Every permission of the spec's Endpoints section, plus account erasure (DESIGN section 3) and
 * `manage team` (beyond the spec, docs/security.md: members, invitations and integration clients; finer
 * rules about who may grant `admin` live in src/identity/teams, docs/security.md).
 */
export enum Permission {
  ViewBackups = 'view backups',
  RunBackups = 'run backups',
  ManageConnections = 'manage connections',
  Restore = 'restore',
  Compliance = 'compliance',
  Export = 'export',
  ViewNotifications = 'view notifications',
  AccountErasure = 'account erasure',
  ManageTeam = 'manage team',
}

export const ROLES = ['super_admin', 'admin', 'operator', 'auditor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const P = Permission;

/** The role -> permission table of DESIGN section 3; the one place roles are mapped. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  super_admin: new Set(Object.values(P)),
  admin: new Set([
    P.ViewBackups,
    P.RunBackups,
    P.ManageConnections,
    P.Restore,
    P.Compliance,
    P.Export,
    P.ViewNotifications,
    P.ManageTeam,
  ]),
  operator: new Set([P.ViewBackups, P.RunBackups, P.ViewNotifications]),
  auditor: new Set([P.ViewBackups, P.Compliance, P.Export, P.ViewNotifications]),
  viewer: new Set([P.ViewBackups, P.ViewNotifications]),
};

/** True when `role` grants `permission`. */
export function roleHasPermission(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * The role granting exactly the permissions both `a` and `b` grant: what an integration client
 * of role `a` may do on behalf of a member whose role is `b`. The intersection of any two rows
 * of ROLE_PERMISSIONS is itself a row (e.g. operator and auditor meet at viewer); should the
 * table ever change so that it is not, the most capable role within the intersection is taken.
 */
export function narrowerRole(a: Role, b: Role): Role {
  const shared = [...ROLE_PERMISSIONS[a]].filter((permission) => ROLE_PERMISSIONS[b].has(permission));
  const within = ROLES.filter((role) => [...ROLE_PERMISSIONS[role]].every((p) => shared.includes(p)));
  return within.reduce((best, role) =>
    ROLE_PERMISSIONS[role].size > ROLE_PERMISSIONS[best].size ? role : best,
  );
}
