/**
 * The v1.0 properties of an application (`application` resource type) as Graph answers them
 * before any is set: Graph lists every property of a directory object, null or empty when unset
 * (a generated object and a created one carry them all; a write's members replace them).
 */
export const APPLICATION_DEFAULTS: Readonly<Record<string, unknown>> = {
  addIns: [],
  api: null,
  applicationTemplateId: null,
  appRoles: [],
  certification: null,
  defaultRedirectUri: null,
  deletedDateTime: null,
  description: null,
  disabledByMicrosoftStatus: null,
  groupMembershipClaims: null,
  identifierUris: [],
  info: null,
  isDeviceOnlyAuthSupported: null,
  isFallbackPublicClient: null,
  keyCredentials: [],
  notes: null,
  optionalClaims: null,
  parentalControlSettings: null,
  passwordCredentials: [],
  publicClient: null,
  requiredResourceAccess: [],
  serviceManagementReference: null,
  signInAudience: 'AzureADMyOrg',
  spa: null,
  tags: [],
  tokenEncryptionKeyId: null,
  verifiedPublisher: null,
  web: null,
};

/** The v1.0 properties of a new service principal (`servicePrincipal`) not taken from its app. */
export const SERVICE_PRINCIPAL_DEFAULTS: Readonly<Record<string, unknown>> = {
  accountEnabled: true,
  addIns: [],
  alternativeNames: [],
  appDescription: null,
  appRoleAssignmentRequired: false,
  deletedDateTime: null,
  description: null,
  homepage: null,
  info: null,
  keyCredentials: [],
  loginUrl: null,
  logoutUrl: null,
  notes: null,
  notificationEmailAddresses: [],
  oauth2PermissionScopes: [],
  passwordCredentials: [],
  preferredSingleSignOnMode: null,
  replyUrls: [],
  servicePrincipalType: 'Application',
  tags: [],
};

/** The v1.0 properties of a new administrative unit (`administrativeUnit`). */
export const UNIT_DEFAULTS: Readonly<Record<string, unknown>> = {
  description: null,
  visibility: null,
  membershipType: null,
  membershipRule: null,
  membershipRuleProcessingState: null,
  isMemberManagementRestricted: false,
  deletedDateTime: null,
};
