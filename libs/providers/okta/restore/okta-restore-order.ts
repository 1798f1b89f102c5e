import { OKTA_RESOURCE_TYPES, type OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';

/**
 * The order a restore applies Okta types in: every type after the types its objects refer to, so
 * that a reference to a re-created object can be rewritten to its new id (DESIGN section 6, with
 * the moves its list does not spell out):
 * - hooks and trusted origins come first: they refer to nothing, and policy rules (profile
 *   enrollment) and authorization server token rules name inline hooks;
 * - identity providers and apps come before authenticators and policies: external IdP and custom
 *   app authenticators name them (`settings.appInstanceId`), and so do IdP discovery rules
 *   (`conditions.app`); authenticators stay before policies, whose enrollment settings name them.
 *   An app names no policy (its sign-on policy is the later `app_sign_on_policy`), and what hangs
 *   off apps (assignments, features...) keeps its place after the policies. The one reference
 *   back, a CIBA app's custom authenticator, names an object a restore never re-creates (Okta
 *   cannot delete authenticators);
 * - authorization servers come after apps: their policies name OAuth clients (app ids);
 * - profile mappings come after apps and identity providers, whose mappings they are.
 * Every other type keeps its collection order (okta-resource-types.ts).
 */
export const OKTA_RESTORE_ORDER: readonly OktaResourceType[] = (() => {
  const moved = new Set<OktaResourceType>();
  const take = (...types: OktaResourceType[]) => {
    types.forEach((type) => moved.add(type));
    return types;
  };
  const early = take('event_hook', 'inline_hook', 'trusted_origin');
  const beforeAuthenticators = take('identity_provider', 'app');
  const authorizationServers = take(
    'authorization_server',
    'authorization_server_scope',
    'authorization_server_claim',
    'authorization_server_policy',
    'authorization_server_policy_rule',
  );
  const afterApps = take('profile_mapping');
  const order: OktaResourceType[] = [];
  for (const type of OKTA_RESOURCE_TYPES) {
    if (moved.has(type)) continue;
    if (type === 'group') order.push(...early);
    if (type === 'authenticator') order.push(...beforeAuthenticators);
    if (type === 'brand') order.push(...authorizationServers, ...afterApps);
    order.push(type);
  }
  return order;
})();
