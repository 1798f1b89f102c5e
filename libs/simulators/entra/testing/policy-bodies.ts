/**
 * The body of "Create conditionalAccessPolicy" for a policy that blocks legacy authentication
 * (Exchange ActiveSync and other clients) for all users and apps, in `state` (SCuBA MS.AAD 1.1's
 * shape), for specs that write a policy through Graph.
 */
export function blockLegacyAuthenticationPolicy(state = 'enabled'): Record<string, unknown> {
  return {
    displayName: 'Block legacy authentication',
    state,
    conditions: {
      clientAppTypes: ['exchangeActiveSync', 'other'],
      applications: { includeApplications: ['All'] },
      users: { includeUsers: ['All'] },
    },
    grantControls: { operator: 'OR', builtInControls: ['block'] },
  };
}
