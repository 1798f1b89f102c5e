/** Every permission of the spec's Endpoints section, plus account erasure (DESIGN section 3). */
export enum Permission {
  ViewBackups = 'view backups',
  RunBackups = 'run backups',
  ManageConnections = 'manage connections',
  Restore = 'restore',
  Compliance = 'compliance',
  Export = 'export',
  ViewNotifications = 'view notifications',
  AccountErasure = 'account erasure',
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
