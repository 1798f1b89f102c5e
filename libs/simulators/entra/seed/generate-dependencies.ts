import type { Prng } from '@libs/simulators/kit/seed/prng.js';
import type { GraphObject, TenantState } from '@libs/simulators/entra/tenant-state.js';

import { FEDERATION_DEFAULTS, MASKED_SECRET } from '@libs/simulators/entra/dependency-objects.js';
import { guid } from './guid.js';

/** Office 365 E3 and Enterprise Mobility + Security E3, with two plans each, and Entra ID P2 ("subscribedSku"). */
const SKUS: readonly GraphObject[] = [
  {
    id: '6fd2c87f-b296-42f0-b197-1e91e994b900',
    skuPartNumber: 'ENTERPRISEPACK',
    servicePlans: [
      {
        servicePlanId: 'efb87545-963c-4e0d-99df-69c6916d9eb0',
        servicePlanName: 'EXCHANGE_S_ENTERPRISE',
        appliesTo: 'User',
      },
      { servicePlanId: '57ff2da0-773e-42df-b2af-ffb7a2317929', servicePlanName: 'TEAMS1', appliesTo: 'User' },
    ],
  },
  {
    id: 'efccb6f7-5641-4e0e-bd10-b4976e1bf68e',
    skuPartNumber: 'EMS',
    servicePlans: [
      {
        servicePlanId: '41781fb2-bc02-4b7c-bd55-b576c07bb09d',
        servicePlanName: 'AAD_PREMIUM',
        appliesTo: 'User',
      },
      {
        servicePlanId: 'c1ec4a95-1f05-45b3-a911-aa3fa01094f5',
        servicePlanName: 'INTUNE_A',
        appliesTo: 'User',
      },
    ],
  },
  // Microsoft Entra ID P2 ("Product names and service plan identifiers for licensing"), which
  // risk-based conditional access needs (licences.ts): a generated tenant takes every condition.
  {
    id: '84a661c4-e949-4bd2-a560-ed7766fcaf2b',
    skuPartNumber: 'AAD_PREMIUM_P2',
    servicePlans: [
      {
        servicePlanId: 'eec0eb4f-6444-4f95-aba0-50c24d67f998',
        servicePlanName: 'AAD_PREMIUM_P2',
        appliesTo: 'User',
      },
      {
        servicePlanId: '41781fb2-bc02-4b7c-bd55-b576c07bb09d',
        servicePlanName: 'AAD_PREMIUM',
        appliesTo: 'User',
      },
    ],
  },
];

/** A PIM rule target: who the rule applies to and for what (unifiedRoleManagementPolicyRuleTarget). */
function target(caller: 'Admin' | 'EndUser', level: 'Eligibility' | 'Assignment'): GraphObject {
  return {
    caller,
    operations: ['All'],
    level,
    inheritableSettings: [],
    enforcedSettings: [],
    targetObjects: [],
  } as unknown as GraphObject;
}

/**
 * The rules Entra gives a role's policy by default (Microsoft Entra "Configure Microsoft Entra
 * role settings in PIM": permanent eligible and active assignments allowed, justification on
 * active assignment, activation up to 8 hours with MFA and justification, no approval), as
 * unifiedRoleManagementPolicy `rules` with their ids (`Expiration_Admin_Eligibility`...).
 */
export function defaultRoleRules(): GraphObject[] {
  const expiration = (
    id: string,
    caller: 'Admin' | 'EndUser',
    level: 'Eligibility' | 'Assignment',
    required: boolean,
    maximumDuration: string,
  ) => ({
    '@odata.type': '#microsoft.graph.unifiedRoleManagementPolicyExpirationRule',
    id,
    isExpirationRequired: required,
    maximumDuration,
    target: target(caller, level),
  });
  const enablement = (
    id: string,
    caller: 'Admin' | 'EndUser',
    level: 'Eligibility' | 'Assignment',
    enabledRules: string[],
  ) => ({
    '@odata.type': '#microsoft.graph.unifiedRoleManagementPolicyEnablementRule',
    id,
    enabledRules,
    target: target(caller, level),
  });
  return [
    expiration('Expiration_Admin_Eligibility', 'Admin', 'Eligibility', false, 'P365D'),
    expiration('Expiration_Admin_Assignment', 'Admin', 'Assignment', false, 'P180D'),
    expiration('Expiration_EndUser_Assignment', 'EndUser', 'Assignment', true, 'PT8H'),
    enablement('Enablement_Admin_Eligibility', 'Admin', 'Eligibility', []),
    enablement('Enablement_Admin_Assignment', 'Admin', 'Assignment', ['Justification']),
    enablement('Enablement_EndUser_Assignment', 'EndUser', 'Assignment', [
      'MultiFactorAuthentication',
      'Justification',
    ]),
    {
      '@odata.type': '#microsoft.graph.unifiedRoleManagementPolicyApprovalRule',
      id: 'Approval_EndUser_Assignment',
      setting: {
        isApprovalRequired: false,
        isApprovalRequiredForExtension: false,
        isRequestorJustificationRequired: true,
        approvalMode: 'SingleStage',
        approvalStages: [],
      },
      target: target('EndUser', 'Assignment'),
    },
  ] as GraphObject[];
}

/**
 * The policy Entra keeps for a directory role and its assignment to the role ("List
 * roleManagementPolicies", "List roleManagementPolicyAssignments"): ids
 * `DirectoryRole_<tenantId>_<guid>` and `<policyId>_<roleDefinitionId>`, scope `/`.
 */
export function ensureRolePolicy(state: TenantState, roleDefinitionId: string, policyGuid: string): void {
  const exists = [...state.collection('roleManagementPolicyAssignments').values()].some(
    (assignment) => assignment.roleDefinitionId === roleDefinitionId,
  );
  if (exists) return;
  const id = `DirectoryRole_${state.tenantId}_${policyGuid}`;
  state.put('roleManagementPolicies', {
    id,
    displayName: 'DirectoryRole',
    description: 'DirectoryRole',
    isOrganizationDefault: false,
    scopeId: '/',
    scopeType: 'DirectoryRole',
    lastModifiedDateTime: null,
    lastModifiedBy: null,
    rules: defaultRoleRules(),
  });
  state.put('roleManagementPolicyAssignments', {
    id: `${id}_${roleDefinitionId}`,
    policyId: id,
    roleDefinitionId,
    scopeId: '/',
    scopeType: 'DirectoryRole',
  });
}

/**
 * Seeds what restores depend on, for a generated tenant and a real one alike: a verified custom
 * domain federated with an on-premises identity provider (its token-signing certificate), two
 * social identity providers, attribute sets and custom security attribute definitions,
 * authentication contexts and a terms of use agreement, two subscribed SKUs with a licence for
 * each user that has a usage location, managers (every fifth user manages the four after), a
 * role management policy per directory role with Entra's default rules, and the default and a
 * custom app management policy.
 */
export function generateDependencies(state: TenantState, prng: Prng, users: readonly string[]): void {
  const domain = 'corp.example.com';
  state.put('domains', {
    id: domain,
    authenticationType: 'Federated',
    isDefault: false,
    isInitial: false,
    isRoot: true,
    isVerified: true,
    supportedServices: ['Email', 'OrgIdAuthentication'],
  });
  state.addChild('federationConfiguration', domain, {
    '@odata.type': '#microsoft.graph.internalDomainFederation',
    ...FEDERATION_DEFAULTS,
    id: guid(prng),
    displayName: 'Corp AD FS',
    issuerUri: 'http://sts.corp.example.com/adfs/services/trust',
    metadataExchangeUri: 'https://sts.corp.example.com/adfs/services/trust/mex',
    passiveSignInUri: 'https://sts.corp.example.com/adfs/ls/',
    activeSignInUri: 'https://sts.corp.example.com/adfs/services/trust/2005/usernamemixed',
    signOutUri: 'https://sts.corp.example.com/adfs/ls/?wa=wsignout1.0',
    signingCertificate: Buffer.from(`corp signing certificate ${guid(prng)}`).toString('base64'),
  });
  for (const [type, clientId] of [
    ['Google', '56433757-cadd-4135-8431-2c9e3fd68ae8.apps.googleusercontent.com'],
    ['Facebook', '1234567890123456'],
  ] as const)
    state.put('identityProviders', {
      '@odata.type': '#microsoft.graph.socialIdentityProvider',
      id: `${type}-OAUTH`,
      displayName: `${type} sign-in`,
      identityProviderType: type,
      clientId,
      clientSecret: MASKED_SECRET,
    });
  for (const [set, name, description] of [
    ['Engineering', 'Project', 'Active projects of the user'],
    ['Finance', 'CostCenter', 'Cost center of the user'],
  ] as const) {
    state.put('attributeSets', { id: set, description: `${set} attributes`, maxAttributesPerSet: 25 });
    state.put('customSecurityAttributeDefinitions', {
      id: `${set}_${name}`,
      attributeSet: set,
      name,
      description,
      isCollection: false,
      isSearchable: true,
      status: 'Available',
      type: 'String',
      usePreDefinedValuesOnly: false,
    });
  }
  for (const [id, displayName] of [
    ['c1', 'Require trusted location'],
    ['c2', 'Sensitive data access'],
  ])
    state.put('authenticationContextClassReferences', {
      id,
      displayName,
      description: `${displayName} (step-up)`,
      isAvailable: true,
    });
  state.put('termsOfUseAgreements', {
    id: guid(prng),
    displayName: 'Acceptable use policy',
    isViewingBeforeAcceptanceRequired: true,
    isPerDeviceAcceptanceRequired: false,
    userReacceptRequiredFrequency: 'P365D',
    termsExpiration: null,
  });
  for (const sku of SKUS) state.put('subscribedSkus', sku);
  const [office, ems] = SKUS;
  users.forEach((id, index) => {
    const user = state.collection('users').get(id);
    if (!user?.usageLocation) return;
    const disabled = String((ems.servicePlans as GraphObject[])[1].servicePlanId);
    const assignedLicenses = [
      { disabledPlans: [], skuId: office.id },
      ...(index % 3 === 0 ? [{ disabledPlans: [disabled], skuId: ems.id }] : []),
    ];
    state.put('users', { ...user, assignedLicenses });
    if (index % 5 !== 0) state.addChild('manager', id, { id: users[index - (index % 5)] });
  });
  for (const role of state.collection('roleDefinitions').values())
    ensureRolePolicy(state, role.id, guid(prng));
  state.put('defaultAppManagementPolicy', {
    id: '00000000-0000-0000-0000-000000000000',
    displayName: 'Default app management tenant policy',
    description:
      'Default tenant policy that enforces app management restrictions on applications and service principals.',
    isEnabled: true,
    applicationRestrictions: {
      passwordCredentials: [],
      keyCredentials: [],
      identifierUris: {
        nonDefaultUriAddition: {
          state: 'disabled',
          restrictForAppsCreatedAfterDateTime: '2025-01-01T00:00:00Z',
          excludeAppsReceivingV2Tokens: true,
          excludeSaml: true,
          isStateSetByMicrosoft: true,
          excludeActors: null,
        },
        uriAdditionWithoutUniqueTenantIdentifier: null,
      },
    },
    servicePrincipalRestrictions: { passwordCredentials: [], keyCredentials: [] },
  });
  state.put('appManagementPolicies', {
    id: guid(prng),
    displayName: 'Short-lived secrets',
    description: 'Client secrets live 90 days at most',
    isEnabled: true,
    deletedDateTime: null,
    restrictions: {
      passwordCredentials: [
        {
          restrictionType: 'passwordLifetime',
          maxLifetime: 'P90D',
          restrictForAppsCreatedAfterDateTime: '2024-01-01T00:00:00Z',
          state: 'enabled',
          excludeActors: null,
        },
      ],
      keyCredentials: [],
    },
  });
}
