import type { Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { policyKey } from '@libs/simulators/okta/store/org-state.js';
import { addSystemScopesAndClaims } from '@libs/simulators/okta/resources/authorization-server-defaults.js';
import type { GeneratorContext } from './generator-context.js';
import type { People } from './generate-people.js';

/**
 * The `default` custom authorization server, with system and custom scopes, claims, an access
 * policy for all clients and rules (one of them limited to a group).
 */
export function generateAuthorizationServer(ctx: GeneratorContext, people: People): void {
  const { state, prng } = ctx;
  const id = ctx.id(ID_PREFIX.authorizationServer);
  const { created, lastUpdated, createdMs } = ctx.timestamps();
  state.authorizationServers.set(id, {
    data: {
      id,
      name: 'default',
      description: 'Default Authorization Server for your Applications',
      audiences: ['api://default'],
      issuer: `${ctx.baseUrl}/oauth2/${id}`,
      issuerMode: 'ORG_URL',
      status: 'ACTIVE',
      created,
      lastUpdated,
      credentials: {
        signing: {
          kid: ctx.id('kid'),
          rotationMode: 'AUTO',
          lastRotated: oktaTimestamp(ctx.instant(createdMs)),
        },
      },
    },
  });

  const scopes = state.authorizationServerScopes.of(id);
  /** A custom scope (Okta's own come from addSystemScopesAndClaims). */
  const scope = (name: string, description: string) => {
    const scopeId = ctx.id(ID_PREFIX.scope);
    scopes.set(scopeId, {
      data: {
        id: scopeId,
        name,
        displayName: name,
        description,
        system: false,
        metadataPublish: 'NO_CLIENTS',
        consent: 'REQUIRED',
        optional: false,
        default: false,
      },
    });
  };
  addSystemScopesAndClaims(
    state,
    id,
    () => ctx.id(ID_PREFIX.scope),
    () => ctx.id(ID_PREFIX.claim),
  );
  scope('orders:read', 'Read orders');
  scope('orders:write', 'Create and change orders');

  const claims = state.authorizationServerClaims.of(id);
  const claim = (fields: Json) => {
    const claimId = ctx.id(ID_PREFIX.claim);
    claims.set(claimId, {
      data: {
        id: claimId,
        ...fields,
        status: 'ACTIVE',
        conditions: { scopes: [] },
        system: false,
        alwaysIncludeInToken: true,
      },
    });
  };
  claim({
    name: 'department',
    claimType: 'RESOURCE',
    valueType: 'EXPRESSION',
    value: 'user.profile.department',
  });
  claim({
    name: 'groups',
    claimType: 'IDENTITY',
    valueType: 'GROUPS',
    value: 'Engineering',
    group_filter_type: 'STARTS_WITH',
  });

  const policies = state.authorizationServerPolicies.of(id);
  const times = ctx.timestamps();
  const policyId = ctx.id(ID_PREFIX.authorizationServerPolicy);
  policies.set(policyId, {
    data: {
      id: policyId,
      status: 'ACTIVE',
      name: 'Default Policy',
      description: 'Default policy for all clients',
      priority: 1,
      system: false,
      conditions: { clients: { include: ['ALL_CLIENTS'] } },
      created: times.created,
      lastUpdated: times.lastUpdated,
      type: 'OAUTH_AUTHORIZATION_POLICY',
    },
  });
  const rules = state.authorizationServerPolicyRules.of(policyKey(id, policyId));
  const rule = (name: string, priority: number, groups: string[], grantTypes: string[], minutes: number) => {
    const ruleTimes = ctx.timestamps();
    const ruleId = ctx.id(ID_PREFIX.authorizationServerPolicyRule);
    rules.set(ruleId, {
      data: {
        id: ruleId,
        status: 'ACTIVE',
        name,
        priority,
        created: ruleTimes.created,
        lastUpdated: ruleTimes.lastUpdated,
        system: false,
        conditions: {
          people: { users: { include: [], exclude: [] }, groups: { include: groups } },
          grantTypes: { include: grantTypes },
          scopes: { include: ['*'] },
        },
        actions: {
          token: {
            accessTokenLifetimeMinutes: minutes,
            refreshTokenLifetimeMinutes: 0,
            refreshTokenWindowMinutes: 10080,
          },
        },
        type: 'RESOURCE_ACCESS',
      },
    });
  };
  const partners = people.groupIds.length > 0 ? prng.pick(people.groupIds) : people.everyoneGroupId;
  rule('Short-lived tokens for partners', 1, [partners], ['authorization_code'], 15);
  rule('Default Policy Rule', 2, ['EVERYONE'], ['client_credentials', 'authorization_code', 'implicit'], 60);
}
