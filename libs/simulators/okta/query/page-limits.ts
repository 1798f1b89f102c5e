/** A list endpoint's `limit`: the page size when absent, and the clamp for larger values. */
export interface PageLimits {
  default: number;
  max: number;
  min?: number;
}

const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * Page sizes per list endpoint, from the `limit` parameter of each operation in Okta's
 * OpenAPI description (management.yaml 2026.06.3). A larger `limit` is clamped to `max`, as Okta
 * does. Where the description gives no maximum, the default is also the maximum; where it
 * gives `default: -1` or no limit at all (zones, policies, claims...), one page holds everything
 * unless the client asks for less.
 */
export const PAGE_LIMITS = {
  /** listUsers: default 200; the Users API caps pages at 200. */
  users: { default: 200, max: 200 },
  /** listGroups: maximum 10000. */
  groups: { default: 10_000, max: 10_000 },
  /** listGroupUsers: default 1000, no maximum documented. */
  groupMembers: { default: 1000, max: 1000 },
  /** listGroupRules: default 50, minimum 1, maximum 200. */
  groupRules: { default: 50, max: 200, min: 1 },
  /** listApplications: default -1 (server's page), maximum 200. */
  apps: { default: 200, max: 200 },
  /** listApplicationUsers: default 50, minimum 1, maximum 500. */
  appUsers: { default: 50, max: 500, min: 1 },
  /** listApplicationGroupAssignments: default 20, minimum 20, maximum 200. */
  appGroups: { default: 20, max: 200, min: 20 },
  /** listPolicies: `limit` is a string with no default or maximum. */
  policies: { default: UNBOUNDED, max: UNBOUNDED },
  /** listPolicyRules: `limit` only, no cursor. */
  policyRules: { default: UNBOUNDED, max: UNBOUNDED },
  /** listAuthorizationServers: default 200, maximum 200. */
  authorizationServers: { default: 200, max: 200 },
  /** listOAuth2Scopes: maximum 200. */
  scopes: { default: 200, max: 200 },
  /** listOAuth2Claims, listAuthorizationServerPolicies, listAuthorizationServerPolicyRules: not paged. */
  unpaged: { default: UNBOUNDED, max: UNBOUNDED },
  /** listNetworkZones: default -1, no maximum. */
  zones: { default: UNBOUNDED, max: UNBOUNDED },
  /** listTrustedOrigins: default 20, maximum 200. */
  trustedOrigins: { default: 20, max: 200 },
  /** listGroupOwners: default 1000, no maximum documented. */
  groupOwners: { default: 1000, max: 1000 },
  /** listIdentityProviders: default 20, minimum 1, maximum 200. */
  identityProviders: { default: 20, max: 200, min: 1 },
  /** listProfileMappings: default 20, maximum 200. */
  profileMappings: { default: 20, max: 200 },
  /** listBrands, listEmailTemplates, listEmailCustomizations: default 20, minimum 1, maximum 200. */
  brands: { default: 20, max: 200, min: 1 },
  /**
   * listRoles, listResourceSets, listBindings, listMembersOfBinding: `after` only, no `limit`;
   * Okta pages them itself (the next page's URL is in `_links.next`).
   */
  iam: { default: 20, max: 20 },
  /** listResourceSetResources, listUsersWithRoleAssignments: default 100, no maximum documented. */
  iamResources: { default: 100, max: 100 },
  /** listLogEvents: default 100, "Integer between 0 and 1000". */
  logs: { default: 100, max: 1000 },
} as const satisfies Record<string, PageLimits>;

/** The page size to serve for a raw `limit` query value. */
export function effectiveLimit(raw: string | null, limits: PageLimits): number {
  const requested = raw === null || raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isInteger(requested) || requested <= 0) return limits.default;
  return Math.max(limits.min ?? 1, Math.min(requested, limits.max));
}
