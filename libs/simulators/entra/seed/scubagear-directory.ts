import type { GraphObject, TenantState } from '@libs/simulators/entra/tenant-state.js';
import { MICROSOFT_GRAPH_APP_ID } from './generate-directory.js';

/** A Graph PowerShell object of the export, PascalCase. */
type Exported = Record<string, unknown>;

/**
 * The directory keys of a ScubaGear export that hold objects of the Entra types beyond users and groups
 * (docs/resource-types.md).
 */
export interface ScubaGearDirectoryKeys {
  /** directory settings (`Get-MgBetaDirectorySetting`): the tenant's group settings */
  directory_settings?: Exported[];
  /** per privileged role, its active assignments (`...RoleAssignmentScheduleInstance`) */
  privileged_roles?: Array<{ DisplayName: string; RoleTemplateId: string; Assignments?: Exported[] }>;
  privileged_service_principals?: Record<
    string,
    { AppId: string; ServicePrincipalId: string; DisplayName: string }
  >;
  risky_applications?: Exported[];
  risky_third_party_service_principals?: Exported[];
}

/**
 * Seeds the real tenant's directory objects of the second batch from a ScubaGear export
 * (../shared/fixtures/entra/SOURCE.md), each converted to the Graph v1.0 JSON of its entity type
 * by `graphJson` (camelCase, ISO dates, undeclared members left out):
 * - `directory_settings`: the tenant's group settings (`groupSetting`: id, displayName,
 *   templateId, values);
 * - `privileged_roles[].Assignments`: role assignment schedule instances, whence a role
 *   assignment each (`unifiedRoleAssignment`: id, principal, role, scopes) and the assignment
 *   schedule it belongs to (`unifiedRoleAssignmentSchedule`, id `RoleAssignmentScheduleId`);
 * - `risky_applications`: app registrations (credentials' metadata, whose secret values Graph
 *   never returns; the permissions they ask for as `requiredResourceAccess`), their federated
 *   identity credential and service principal;
 * - `privileged_service_principals`, `risky_third_party_service_principals`: service principals;
 *   the Graph application permissions admin-consented to them become app role assignments on
 *   Microsoft Graph's service principal (`graphSp`), consented delegated ones an
 *   `AllPrincipals` OAuth2 grant.
 */
export function seedDirectoryFromScubaGear(
  state: TenantState,
  source: ScubaGearDirectoryKeys,
  graphJson: (entityType: string, exported: unknown) => GraphObject,
  graphSp: GraphObject,
): void {
  for (const setting of source.directory_settings ?? [])
    state.put('groupSettings', graphJson('groupSetting', setting));

  for (const role of source.privileged_roles ?? [])
    for (const instance of role.Assignments ?? []) {
      const scope = {
        PrincipalId: instance.PrincipalId,
        RoleDefinitionId: instance.RoleDefinitionId,
        DirectoryScopeId: instance.DirectoryScopeId,
        AppScopeId: instance.AppScopeId,
      };
      // Graph answers `condition` on every assignment, null when it has none; the export omits it.
      state.put('roleAssignments', {
        condition: null,
        ...graphJson('unifiedRoleAssignment', { Id: instance.Id, ...scope }),
      });
      const start = instance.StartDateTime ?? null;
      const end = instance.EndDateTime ?? null;
      state.put(
        'roleAssignmentSchedules',
        graphJson('unifiedRoleAssignmentSchedule', {
          Id: instance.RoleAssignmentScheduleId,
          ...scope,
          AssignmentType: instance.AssignmentType,
          MemberType: instance.MemberType,
          Status: 'Provisioned',
          ScheduleInfo: {
            StartDateTime: start,
            Expiration: { Type: end ? 'afterDateTime' : 'noExpiration', EndDateTime: end },
          },
        }),
      );
    }

  const servicePrincipal = (id: string, fields: Exported): void => {
    if (!state.collection('servicePrincipals').has(id))
      state.put(
        'servicePrincipals',
        graphJson('servicePrincipal', {
          Id: id,
          ServicePrincipalType: 'Application',
          AccountEnabled: true,
          ...fields,
        }),
      );
  };
  for (const app of source.risky_applications ?? []) {
    const ids = app.ObjectId as { Application: string; ServicePrincipal: string };
    const permissions = listOf(app.Permissions);
    state.put(
      'applications',
      graphJson('application', {
        Id: ids.Application,
        AppId: app.AppId,
        DisplayName: app.DisplayName,
        SignInAudience: app.IsMultiTenantEnabled ? 'AzureADMultipleOrgs' : 'AzureADMyOrg',
        KeyCredentials: listOf(app.KeyCredentials).map((key) => ({
          KeyId: key.KeyId,
          DisplayName: key.DisplayName,
          StartDateTime: key.StartDateTime,
          EndDateTime: key.EndDateTime,
          Type: 'AsymmetricX509Cert',
          Usage: 'Verify',
          Key: null,
        })),
        PasswordCredentials: listOf(app.PasswordCredentials).map((secret) => ({
          KeyId: secret.KeyId,
          DisplayName: secret.DisplayName,
          StartDateTime: secret.StartDateTime,
          EndDateTime: secret.EndDateTime,
          SecretText: null,
        })),
        RequiredResourceAccess: permissions.length
          ? [
              {
                ResourceAppId: MICROSOFT_GRAPH_APP_ID,
                ResourceAccess: permissions.map((permission) => ({
                  Id: permission.RoleId,
                  Type: permission.RoleType === 'Application' ? 'Role' : 'Scope',
                })),
              },
            ]
          : [],
      }),
    );
    for (const credential of listOf(app.FederatedCredentials))
      state.addChild(
        'federatedIdentityCredentials',
        ids.Application,
        graphJson('federatedIdentityCredential', {
          Id: credential.Id,
          Name: credential.Name,
          Description: credential.Description,
          Issuer: credential.Issuer,
          Subject: credential.Subject,
          // The export joins audiences with line breaks.
          Audiences: String(credential.Audiences ?? '')
            .split(/\r?\n/)
            .filter(Boolean),
        }),
      );
    servicePrincipal(ids.ServicePrincipal, { AppId: app.AppId, DisplayName: app.DisplayName });
    consented(state, graphJson, graphSp, ids.ServicePrincipal, String(app.DisplayName), permissions);
  }
  for (const sp of Object.values(source.privileged_service_principals ?? {}))
    servicePrincipal(sp.ServicePrincipalId, { AppId: sp.AppId, DisplayName: sp.DisplayName });
  for (const sp of source.risky_third_party_service_principals ?? []) {
    const id = String(sp.ObjectId);
    servicePrincipal(id, {
      AppId: sp.AppId,
      DisplayName: sp.DisplayName,
      SignInAudience: sp.SignInAudience,
      AppOwnerOrganizationId: sp.AppOwnerOrganizationId,
    });
    consented(state, graphJson, graphSp, id, String(sp.DisplayName), listOf(sp.Permissions));
  }
}

/**
 * The Graph permissions an admin consented to for `clientId`: application ones as app role
 * assignments of Graph's service principal, delegated ones as one tenant-wide grant.
 */
function consented(
  state: TenantState,
  graphJson: (entityType: string, exported: unknown) => GraphObject,
  graphSp: GraphObject,
  clientId: string,
  clientName: string,
  permissions: Exported[],
): void {
  const granted = permissions.filter(
    (p) => p.IsAdminConsented === true && p.ApplicationDisplayName === 'Microsoft Graph',
  );
  for (const permission of granted.filter((p) => p.RoleType === 'Application'))
    state.addChild(
      'appRoleAssignedTo',
      graphSp.id,
      graphJson('appRoleAssignment', {
        // Graph's assignment ids are opaque; this one is made from the client and the role.
        Id: Buffer.from(`${clientId}:${String(permission.RoleId)}`).toString('base64url'),
        AppRoleId: permission.RoleId,
        PrincipalId: clientId,
        PrincipalDisplayName: clientName,
        PrincipalType: 'ServicePrincipal',
        ResourceId: graphSp.id,
        ResourceDisplayName: 'Microsoft Graph',
      }),
    );
  const scopes = granted.filter((p) => p.RoleType === 'Delegated').map((p) => String(p.RoleDisplayName));
  if (scopes.length > 0)
    state.put(
      'oauth2PermissionGrants',
      graphJson('oAuth2PermissionGrant', {
        Id: Buffer.from(`${clientId}:${graphSp.id}`).toString('base64url'),
        ClientId: clientId,
        ConsentType: 'AllPrincipals',
        PrincipalId: null,
        ResourceId: graphSp.id,
        Scope: scopes.join(' '),
      }),
    );
}

/** The export writes a single credential as an object, several as an array, none as null. */
function listOf(value: unknown): Exported[] {
  if (value === null || value === undefined) return [];
  return (Array.isArray(value) ? value : [value]) as Exported[];
}
