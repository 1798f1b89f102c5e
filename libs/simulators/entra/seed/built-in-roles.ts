import type { TenantState } from '@libs/simulators/entra/tenant-state.js';

/**
 * Built-in directory roles every tenant holds, with the fixed ids (their template ids) of
 * Microsoft Entra "Built-in roles": the privileged roles CISA ScubaGear's export lists
 * (`privileged_roles`), which a tenant's role grants name.
 */
const PRIVILEGED_BUILT_IN_ROLES: ReadonlyArray<readonly [string, string]> = [
  ['62e90394-69f5-4237-9190-012177145e10', 'Global Administrator'],
  ['fe930be7-5e62-47db-91af-98c3a49a38b1', 'User Administrator'],
  ['29232cdf-9323-42fd-ade2-1d097af3e4de', 'Exchange Administrator'],
  ['f28a1f50-f6e7-4571-818b-6a12f2af6b6c', 'SharePoint Administrator'],
  ['9b895d92-2cd3-44c7-9d02-a6ac2d5ea5c3', 'Application Administrator'],
  ['e8611ab8-c189-46e8-94e1-60213ab1f814', 'Privileged Role Administrator'],
  ['158c047a-c907-4556-b7ef-446551a6b5f7', 'Cloud Application Administrator'],
  ['8ac3fc64-6eca-42ea-9e69-59f4c7b60eb2', 'Hybrid Identity Administrator'],
];

/**
 * Puts the privileged built-in roles a tenant lacks (`unifiedRoleDefinition`: `isBuiltIn`, its
 * id its template id, scoped to `/`), as every Entra tenant has them: in any tenant, a role
 * assignment may name them ("Create unifiedRoleAssignment" refuses a role that does not exist).
 */
export function seedPrivilegedBuiltInRoles(state: TenantState): void {
  for (const [id, displayName] of PRIVILEGED_BUILT_IN_ROLES) putBuiltInRole(state, id, displayName);
}

/**
 * Puts one built-in role (`unifiedRoleDefinition`: `isBuiltIn`, its id its template id, the same
 * in every tenant, scoped to `/`) unless the tenant has it.
 */
export function putBuiltInRole(state: TenantState, id: string, displayName: string): void {
  if (state.collection('roleDefinitions').has(id)) return;
  state.put('roleDefinitions', {
    id,
    templateId: id,
    displayName,
    description: `Built-in role ${displayName}.`,
    isBuiltIn: true,
    isEnabled: true,
    resourceScopes: ['/'],
    version: '1',
    rolePermissions: [
      {
        allowedResourceActions: ['microsoft.directory/allEntities/allProperties/allTasks'],
        condition: null,
      },
    ],
  });
}
