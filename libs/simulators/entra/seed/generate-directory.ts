import type { Prng } from '@libs/simulators/kit/seed/prng.js';

import type { Collection, GraphObject, TenantState } from '@libs/simulators/entra/tenant-state.js';
import { APPLICATION_DEFAULTS, SERVICE_PRINCIPAL_DEFAULTS, UNIT_DEFAULTS } from './directory-defaults.js';
import { guid } from './guid.js';
import { putBuiltInRole } from './built-in-roles.js';

/** Microsoft Graph's application id, the same in every tenant (its service principal's `appId`). */
export const MICROSOFT_GRAPH_APP_ID = '00000003-0000-0000-c000-000000000000';
/** Built-in role template ids (Microsoft Entra built-in roles reference), also their definitions' ids. */
export const GLOBAL_ADMINISTRATOR_ROLE = '62e90394-69f5-4237-9190-012177145e10';
const USER_ADMINISTRATOR_ROLE = 'fe930be7-5e62-47db-91af-98c3a49a38b1';
/** Application permissions of Microsoft Graph (permissions reference: their app role ids). */
const GRAPH_APP_ROLES = [
  { id: 'df021288-bdef-4463-88db-98f22de89214', value: 'User.Read.All' },
  { id: '5b567255-7703-4780-807c-7be8301ae99b', value: 'Group.Read.All' },
  { id: '246dd0d5-5bd0-4def-940b-0421030a5b68', value: 'Policy.Read.All' },
];
const USER_READ_SCOPE = 'e1fe6dd8-ba31-4d61-89e7-88639da4683d';

/** Adds `object` to a singleton collection unless the tenant has it (the real tenant's wins). */
function singleton(
  state: TenantState,
  collection: Collection,
  key: string,
  object: Record<string, unknown>,
): void {
  if (state.collection(collection).size === 0) state.collection(collection).set(key, object as GraphObject);
}

/** Microsoft Graph's service principal, which every tenant holds; its id is the tenant's own. */
export function ensureGraphServicePrincipal(state: TenantState, prng: Prng): GraphObject {
  const existing = [...state.collection('servicePrincipals').values()].find(
    (sp) => sp.appId === MICROSOFT_GRAPH_APP_ID,
  );
  if (existing) return existing;
  const graph: GraphObject = {
    ...SERVICE_PRINCIPAL_DEFAULTS,
    id: guid(prng),
    appId: MICROSOFT_GRAPH_APP_ID,
    displayName: 'Microsoft Graph',
    appDisplayName: 'Microsoft Graph',
    servicePrincipalType: 'Application',
    accountEnabled: true,
    appOwnerOrganizationId: 'f8cdef31-a31e-4b4a-93e4-5f571e91255a',
    appRoles: GRAPH_APP_ROLES.map(({ id, value }) => ({
      id,
      value,
      displayName: `Read ${value}`,
      description: `Allows the app to read ${value} without a signed-in user.`,
      allowedMemberTypes: ['Application'],
      isEnabled: true,
      origin: 'Application',
    })),
    oauth2PermissionScopes: [
      {
        id: USER_READ_SCOPE,
        value: 'User.Read',
        type: 'User',
        isEnabled: true,
        adminConsentDisplayName: 'Sign in and read user profile',
        adminConsentDescription:
          'Allows users to sign-in to the app, and allows the app to read the profile of signed-in users.',
        userConsentDisplayName: 'Sign you in and read your profile',
        userConsentDescription: 'Allows you to sign in to the app with your organizational account.',
      },
    ],
  };
  state.put('servicePrincipals', graph);
  return graph;
}

/**
 * `count` line-of-business app registrations beyond the two named ones (none when `count` <= 0),
 * every other one declaring an app role, for tenants sized to a restore's scale.
 */
function lineOfBusinessApps(
  count: number,
): Array<{ name: string; audience: string; role: string | undefined }> {
  return Array.from({ length: Math.max(count, 0) }, (_, i) => ({
    name: `Line-of-business app ${i + 1}`,
    audience: 'AzureADMyOrg',
    role: i % 2 === 0 ? 'Records.Reader' : undefined,
  }));
}

/**
 * Adds generated objects of the directory's other types, deterministic for the PRNG's state:
 * two app registrations (or `applications`, line-of-business ones after the two; owners, a GitHub federated identity credential, a directory extension,
 * a certificate and a secret whose values Graph never returns) with their service principals, an
 * app role assignment of a Graph permission and one of an app's own role to a group, a delegated
 * grant for everyone, authentication strength policies (the three built-ins and a custom one),
 * permission grant and token / claims / home realm discovery policies, a custom role with its
 * assignment, a PIM eligibility and assignment schedule, an administrative unit with members and
 * a scoped role member, group owners, a group lifecycle policy, a cross-tenant partner; two
 * conditional access policies when the tenant has none; and, when the tenant lacks them (the real
 * tenant's export holds none), the singletons every tenant has:
 * security defaults, the admin consent request policy, the cross-tenant access policy and its
 * default, the organization's branding and a group setting. Shapes follow the v1.0 CSDL and the
 * examples of each type's API reference page.
 */
export function generateDirectory(
  state: TenantState,
  prng: Prng,
  users: string[],
  groups: string[],
  applications = 2,
): void {
  const created = '2024-01-01T00:00:00Z';
  const domain = state.domainNames()[0] ?? 'contoso.onmicrosoft.com';
  const user = (i: number): string | undefined => users[i % Math.max(users.length, 1)];
  const graphSp = ensureGraphServicePrincipal(state, prng);

  // App registrations, their children and service principals.
  const apps = [
    { name: 'HR portal', audience: 'AzureADMyOrg', role: 'HR.Manager' as string | undefined },
    { name: 'Deploy pipeline', audience: 'AzureADMyOrg', role: undefined },
    ...lineOfBusinessApps(applications - 2),
  ].map(({ name, audience, role }, i) => {
    const appId = guid(prng);
    const app: GraphObject = {
      ...APPLICATION_DEFAULTS,
      id: guid(prng),
      appId,
      displayName: name,
      signInAudience: audience,
      createdDateTime: created,
      deletedDateTime: null,
      identifierUris: [`api://${appId}`],
      publisherDomain: domain,
      appRoles: role
        ? [
            {
              id: guid(prng),
              value: role,
              displayName: 'HR managers',
              description: 'Managers of HR records',
              allowedMemberTypes: ['User'],
              isEnabled: true,
              origin: 'Application',
            },
          ]
        : [],
      keyCredentials: [
        {
          keyId: guid(prng),
          displayName: `CN=${name}`,
          type: 'AsymmetricX509Cert',
          usage: 'Verify',
          startDateTime: created,
          endDateTime: '2027-01-01T00:00:00Z',
          customKeyIdentifier: null,
          key: null, // Graph returns `key` only with $select=keyCredentials on one app
        },
      ],
      passwordCredentials: [
        {
          keyId: guid(prng),
          displayName: 'CI secret',
          hint: 'Xy7',
          startDateTime: created,
          endDateTime: '2026-07-01T00:00:00Z',
          customKeyIdentifier: null,
          secretText: null, // returned once, by addPassword, never by a read
        },
      ],
      requiredResourceAccess: [
        {
          resourceAppId: MICROSOFT_GRAPH_APP_ID,
          resourceAccess: [
            { id: USER_READ_SCOPE, type: 'Scope' },
            { id: GRAPH_APP_ROLES[i % GRAPH_APP_ROLES.length].id, type: 'Role' },
          ],
        },
      ],
    };
    state.put('applications', app);
    for (const owner of [user(i), user(i + 1)])
      if (owner) state.addChild('applicationOwners', app.id, { id: owner });
    const sp: GraphObject = {
      ...SERVICE_PRINCIPAL_DEFAULTS,
      id: guid(prng),
      appId,
      displayName: name,
      appDisplayName: name,
      servicePrincipalType: 'Application',
      accountEnabled: true,
      appRoleAssignmentRequired: role !== undefined,
      appOwnerOrganizationId: state.tenantId,
      servicePrincipalNames: [appId, `api://${appId}`],
      appRoles: app.appRoles,
      tags: ['WindowsAzureActiveDirectoryIntegratedApp'],
    };
    state.put('servicePrincipals', sp);
    return { app, sp };
  });
  const [hr, deploy] = apps;
  const costCenter = `extension_${String(hr.app.appId).replace(/-/g, '')}_costCenter`;
  state.addChild('extensionProperties', hr.app.id, {
    id: guid(prng),
    name: costCenter,
    appDisplayName: 'HR portal',
    dataType: 'String',
    isMultiValued: false,
    isSyncedFromOnPremises: false,
    targetObjects: ['User'],
    deletedDateTime: null,
  });
  // Two users with a value of the HR portal's directory extension (set with "Update user").
  for (const id of users.slice(0, 2)) {
    const found = state.collection('users').get(id);
    if (found) found[costCenter] = `CC-${1000 + users.indexOf(id)}`;
  }
  state.addChild('federatedIdentityCredentials', deploy.app.id, {
    id: guid(prng),
    name: 'github-main',
    description: 'Deployments from the main branch',
    issuer: 'https://token.actions.githubusercontent.com',
    subject: 'repo:contoso/infrastructure:ref:refs/heads/main',
    audiences: ['api://AzureADTokenExchange'],
  });
  const graphRole = GRAPH_APP_ROLES[0];
  state.addChild('appRoleAssignedTo', graphSp.id, {
    id: guid(prng),
    appRoleId: graphRole.id,
    createdDateTime: created,
    deletedDateTime: null,
    principalDisplayName: deploy.sp.displayName,
    principalId: deploy.sp.id,
    principalType: 'ServicePrincipal',
    resourceDisplayName: 'Microsoft Graph',
    resourceId: graphSp.id,
  });
  if (groups[0])
    state.addChild('appRoleAssignedTo', hr.sp.id, {
      id: guid(prng),
      appRoleId: (hr.app.appRoles as Array<{ id: string }>)[0].id,
      createdDateTime: created,
      deletedDateTime: null,
      principalDisplayName: state.collection('groups').get(groups[0])?.displayName ?? null,
      principalId: groups[0],
      principalType: 'Group',
      resourceDisplayName: 'HR portal',
      resourceId: hr.sp.id,
    });
  // Each further app with a role has it granted to a group, as the HR portal's is.
  apps.slice(2).forEach(({ app, sp }, i) => {
    const group = groups[i % Math.max(groups.length, 1)];
    const roles = app.appRoles as Array<{ id: string }>;
    if (!group || roles.length === 0) return;
    state.addChild('appRoleAssignedTo', sp.id, {
      id: guid(prng),
      appRoleId: roles[0].id,
      createdDateTime: created,
      deletedDateTime: null,
      principalDisplayName: state.collection('groups').get(group)?.displayName ?? null,
      principalId: group,
      principalType: 'Group',
      resourceDisplayName: sp.displayName,
      resourceId: sp.id,
    });
  });
  state.put('oauth2PermissionGrants', {
    // Graph's grant ids are opaque strings made from the client and resource ids.
    id: Buffer.from(`${hr.sp.id}${graphSp.id}`.replace(/-/g, ''), 'hex').toString('base64url'),
    clientId: hr.sp.id,
    consentType: 'AllPrincipals',
    principalId: null,
    resourceId: graphSp.id,
    scope: 'User.Read openid profile',
  });

  // Conditional access, when the tenant has none (the real tenant's 7 stand as they are).
  if (state.collection('conditionalAccessPolicies').size === 0) {
    const policy = (displayName: string, conditions: object, builtInControls: string[]): void =>
      state.put('conditionalAccessPolicies', {
        id: guid(prng),
        displayName,
        state: 'enabled',
        createdDateTime: created,
        modifiedDateTime: null,
        templateId: null,
        conditions: {
          clientAppTypes: ['all'],
          applications: { includeApplications: ['All'], excludeApplications: [] },
          users: {
            includeUsers: [],
            excludeUsers: [],
            includeGroups: [],
            excludeGroups: [],
            includeRoles: [],
            excludeRoles: [],
          },
          ...conditions,
        },
        grantControls: { operator: 'OR', builtInControls, customAuthenticationFactors: [], termsOfUse: [] },
        sessionControls: null,
      });
    const users = (include: object) => ({
      users: {
        includeUsers: [],
        excludeUsers: [],
        includeGroups: [],
        excludeGroups: [],
        includeRoles: [],
        excludeRoles: [],
        ...include,
      },
    });
    policy('Require MFA for administrators', users({ includeRoles: [GLOBAL_ADMINISTRATOR_ROLE] }), ['mfa']);
    policy(
      'Block legacy authentication',
      { ...users({ includeUsers: ['All'] }), clientAppTypes: ['exchangeActiveSync', 'other'] },
      ['block'],
    );
  }

  // Authentication strengths: the built-ins have fixed ids (authenticationStrengthPolicy).
  const strength = (id: string, displayName: string, policyType: string, combinations: string[]): void =>
    state.put('authenticationStrengthPolicies', {
      id,
      displayName,
      description: `${displayName} (generated)`,
      policyType,
      requirementsSatisfied: 'mfa',
      allowedCombinations: combinations,
      createdDateTime: created,
      modifiedDateTime: created,
    });
  strength('00000000-0000-0000-0000-000000000002', 'Multifactor authentication', 'builtIn', [
    'windowsHelloForBusiness',
    'fido2',
    'x509CertificateMultiFactor',
    'password,microsoftAuthenticatorPush',
    'password,softwareOath',
  ]);
  strength('00000000-0000-0000-0000-000000000003', 'Passwordless MFA', 'builtIn', [
    'windowsHelloForBusiness',
    'fido2',
    'x509CertificateMultiFactor',
    'deviceBasedPush',
  ]);
  strength('00000000-0000-0000-0000-000000000004', 'Phishing-resistant MFA', 'builtIn', [
    'windowsHelloForBusiness',
    'fido2',
    'x509CertificateMultiFactor',
  ]);
  strength(guid(prng), 'FIDO2 only for admins', 'custom', ['fido2']);

  // Policies of the `policies` singleton.
  singleton(state, 'identitySecurityDefaultsEnforcementPolicy', '00000000-0000-0000-0000-000000000005', {
    id: '00000000-0000-0000-0000-000000000005',
    displayName: 'Security Defaults',
    description:
      'Security defaults is a set of basic identity security mechanisms recommended by Microsoft. When enabled, these recommendations will be automatically enforced in your organization.',
    isEnabled: false,
  });
  // adminconsentrequestpolicy-get answers no id.
  singleton(state, 'adminConsentRequestPolicy', 'adminConsentRequestPolicy', {
    isEnabled: true,
    notifyReviewers: true,
    remindersEnabled: true,
    requestDurationInDays: 30,
    version: 1,
    reviewers: user(0) ? [{ query: `/users/${user(0)}`, queryType: 'MicrosoftGraph', queryRoot: null }] : [],
  });
  state.put('permissionGrantPolicies', {
    id: 'microsoft-user-default-low',
    displayName: 'Default policy for user consent to low-impact permissions',
    description: 'Includes delegated permissions classified as low impact.',
    deletedDateTime: null,
    includes: [
      {
        id: guid(prng),
        permissionClassification: 'low',
        permissionType: 'delegated',
        resourceApplication: 'any',
        permissions: ['all'],
        clientApplicationIds: ['all'],
        clientApplicationTenantIds: ['all'],
        clientApplicationPublisherIds: ['all'],
        clientApplicationsFromVerifiedPublisherOnly: true,
      },
    ],
    excludes: [],
  });
  const sts = (collection: Collection, displayName: string, definition: object): void =>
    state.put(collection, {
      id: guid(prng),
      displayName,
      definition: [JSON.stringify(definition)],
      isOrganizationDefault: false,
      deletedDateTime: null,
    });
  sts('tokenLifetimePolicies', 'Web apps: 8 hour access tokens', {
    TokenLifetimePolicy: { Version: 1, AccessTokenLifetime: '08:00:00' },
  });
  sts('tokenIssuancePolicies', 'SAML: sign response and assertion', {
    TokenIssuancePolicy: {
      Version: 1,
      SigningAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      SamlTokenVersion: '2.0',
      TokenResponseSigningPolicy: 'ResponseAndToken',
    },
  });
  sts('claimsMappingPolicies', 'HR portal: employee id claim', {
    ClaimsMappingPolicy: {
      Version: 1,
      IncludeBasicClaimSet: 'true',
      ClaimsSchema: [
        {
          Source: 'user',
          ID: 'employeeid',
          SamlClaimType: 'http://schemas.contoso.com/employeeid',
          JwtClaimType: 'employeeid',
        },
      ],
    },
  });
  sts('homeRealmDiscoveryPolicies', 'Contoso federation: auto-accelerate', {
    HomeRealmDiscoveryPolicy: { AccelerateToFederatedDomain: true, PreferredDomain: domain },
  });

  // Directory roles: two built-ins (never backed up: a backup lists custom ones) and a custom role.
  putBuiltInRole(state, GLOBAL_ADMINISTRATOR_ROLE, 'Global Administrator');
  putBuiltInRole(state, USER_ADMINISTRATOR_ROLE, 'User Administrator');
  const customRoleId = guid(prng);
  state.put('roleDefinitions', {
    id: customRoleId,
    templateId: customRoleId,
    displayName: 'Application registration reader',
    description: 'Reads app registrations and their credentials metadata.',
    isBuiltIn: false,
    isEnabled: true,
    resourceScopes: ['/'],
    version: null,
    rolePermissions: [
      {
        allowedResourceActions: [
          'microsoft.directory/applications/standard/read',
          'microsoft.directory/applications/credentials/read',
        ],
        condition: null,
      },
    ],
  });

  // The administrative unit: members and a user administrator scoped to it.
  const unitId = guid(prng);
  state.put('administrativeUnits', {
    id: unitId,
    displayName: 'Paris office',
    ...UNIT_DEFAULTS,
    description: 'Users and groups of the Paris office',
  });
  for (const member of [user(0), user(1), user(2), groups[0]])
    if (member) state.addChild('administrativeUnitMembers', unitId, { id: member });
  const unitAdmin = user(3);
  if (unitAdmin)
    state.addChild('scopedRoleMembers', unitId, {
      id: guid(prng),
      administrativeUnitId: unitId,
      // v1.0: the id of the activated directoryRole of User Administrator
      roleId: guid(prng),
      roleMemberInfo: {
        id: unitAdmin,
        displayName: state.collection('users').get(unitAdmin)?.displayName ?? null,
      },
    });

  // Role assignments and PIM schedules.
  const assignee = user(2);
  if (assignee) {
    state.put('roleAssignments', {
      id: guid(prng),
      principalId: assignee,
      roleDefinitionId: customRoleId,
      directoryScopeId: '/',
      appScopeId: null,
      condition: null,
    });
    state.put('roleAssignments', {
      id: guid(prng),
      principalId: assignee,
      roleDefinitionId: USER_ADMINISTRATOR_ROLE,
      directoryScopeId: `/administrativeUnits/${unitId}`,
      appScopeId: null,
      condition: null,
    });
  }
  const eligible = user(4);
  if (eligible)
    state.put('roleEligibilitySchedules', {
      id: guid(prng),
      principalId: eligible,
      roleDefinitionId: GLOBAL_ADMINISTRATOR_ROLE,
      directoryScopeId: '/',
      appScopeId: null,
      createdUsing: null,
      createdDateTime: created,
      modifiedDateTime: null,
      status: 'Provisioned',
      memberType: 'Direct',
      scheduleInfo: {
        startDateTime: created,
        recurrence: null,
        expiration: { type: 'afterDateTime', endDateTime: '2027-01-01T00:00:00Z', duration: null },
      },
    });
  if (assignee)
    state.put('roleAssignmentSchedules', {
      id: guid(prng),
      principalId: assignee,
      roleDefinitionId: customRoleId,
      directoryScopeId: '/',
      appScopeId: null,
      createdUsing: null,
      createdDateTime: created,
      modifiedDateTime: null,
      status: 'Provisioned',
      assignmentType: 'Assigned',
      memberType: 'Direct',
      scheduleInfo: {
        startDateTime: created,
        recurrence: null,
        expiration: { type: 'noExpiration', endDateTime: null, duration: null },
      },
    });

  // Groups: owners, lifecycle, settings.
  groups.forEach((groupId, i) => {
    const owner = user(i);
    if (owner) state.addChild('groupOwners', groupId, { id: owner });
  });
  state.put('groupLifecyclePolicies', {
    id: guid(prng),
    groupLifetimeInDays: 180,
    managedGroupTypes: 'All',
    alternateNotificationEmails: `groups-admin@${domain}`,
  });
  if (state.collection('groupSettings').size === 0)
    state.put('groupSettings', {
      id: guid(prng),
      displayName: 'Group.Unified',
      templateId: '62375ab9-6b52-47ed-826b-58e47e0e304b',
      values: [
        { name: 'EnableGroupCreation', value: 'false' },
        { name: 'AllowGuestsToAccessGroups', value: 'true' },
      ],
    });

  // Cross-tenant access: the policy, its default and one partner (keyed by tenant id).
  singleton(state, 'crossTenantAccessPolicy', 'crossTenantAccessPolicy', {
    displayName: 'CrossTenantAccessPolicy',
    allowedCloudEndpoints: [],
    deletedDateTime: null,
  });
  const inboundTrust = (mfa: boolean): Record<string, boolean> => ({
    isMfaAccepted: mfa,
    isCompliantDeviceAccepted: false,
    isHybridAzureADJoinedDeviceAccepted: false,
  });
  singleton(state, 'crossTenantAccessPolicyDefault', 'default', {
    isServiceDefault: true,
    inboundTrust: inboundTrust(false),
  });
  const partnerTenant = guid(prng);
  state.collection('crossTenantAccessPolicyPartners').set(partnerTenant, {
    tenantId: partnerTenant,
    isServiceProvider: false,
    isInMultiTenantOrganization: false,
    inboundTrust: inboundTrust(true),
    b2bCollaborationInbound: null,
    b2bCollaborationOutbound: null,
    b2bDirectConnectInbound: null,
    b2bDirectConnectOutbound: null,
  } as unknown as GraphObject);

  // The organization's default branding (organizationalbranding-get).
  for (const organization of state.collection('organization').keys())
    if (state.childrenOf('branding', organization).length === 0)
      state.addChild('branding', organization, {
        id: '0',
        backgroundColor: '#FFFFFF',
        signInPageText: 'Sign in with your work account',
        usernameHintText: `someone@${domain}`,
        customPrivacyAndCookiesUrl: null,
        customTermsOfUseUrl: null,
        cdnList: [],
      });
}
