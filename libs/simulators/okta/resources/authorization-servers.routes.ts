import { randomBytes } from 'node:crypto';

import { notFound } from '@libs/simulators/okta/http/okta-error.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaId, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { policyKey } from '@libs/simulators/okta/store/org-state.js';
import { addSystemScopesAndClaims } from './authorization-server-defaults.js';
import { collectionRoutes } from './collection-routes.js';
import { requireMember, requireText } from './validation.js';

/** Okta rotates an AUTO server's signing key every 90 days (recorded `nextRotation`). */
const ROTATION_MS = 90 * 24 * 3600 * 1000;

/**
 * A new server's signing credentials: a key of its own, and the rotation mode the body asks for
 * (AUTO by default), with the next rotation when AUTO (TestAccResourceOktaAuthServer_crud).
 */
function newSigningCredentials(body: Json, now: number): Json {
  const requested = ((body.credentials as Json | undefined)?.signing as Json | undefined)?.rotationMode;
  const rotationMode = requested ?? 'AUTO';
  return {
    kid: randomBytes(32).toString('base64url'),
    rotationMode,
    lastRotated: oktaTimestamp(now),
    ...(rotationMode === 'AUTO' ? { nextRotation: oktaTimestamp(now + ROTATION_MS) } : {}),
  };
}

/**
 * `/api/v1/authorizationServers` with their scopes, claims, policies and policy rules.
 * Creations answer 201 and lifecycle calls 204 (OpenAPI); deleting a server drops its children.
 * A new server comes with Okta's system scopes and claims.
 */
export function authorizationServerRoutes(org: OrgContext): Route[] {
  const base = '/api/v1/authorizationServers/{authServerId}';
  /** The server's children of one kind; 404 when the server does not exist. */
  const childrenOf = <T>(o: OrgContext, authServerId: string, children: { of(key: string): T }): T => {
    if (!o.state.authorizationServers.has(authServerId)) throw notFound(authServerId, 'AuthorizationServer');
    return children.of(authServerId);
  };
  const common = { scopeFamily: 'okta.authorizationServers', createStatus: 201, deleteStatus: 204 } as const;
  return [
    ...collectionRoutes(
      {
        ...common,
        type: 'authorization_server',
        kindName: 'AuthorizationServer',
        path: '/api/v1/authorizationServers',
        idParam: 'authServerId',
        idPrefix: ID_PREFIX.authorizationServer,
        limits: PAGE_LIMITS.authorizationServers,
        listParams: ['q'],
        qFields: ['name', 'audiences'],
        collection: ({ state }) => state.authorizationServers,
        defaults: (body, { org: o, id }) => {
          requireText(body, 'name');
          addSystemScopesAndClaims(
            o.state,
            id,
            () => oktaId(ID_PREFIX.scope),
            () => oktaId(ID_PREFIX.claim),
          );
          return {
            issuer: `${o.baseUrl}/oauth2/${id}`,
            issuerMode: body.issuerMode ?? 'ORG_URL',
            status: 'ACTIVE',
            credentials: { signing: newSigningCredentials(body, o.now()) },
            default: false,
          };
        },
        cascadeDelete: ({ state }, id) => state.removeAuthorizationServer(id),
        lifecycle: 'no-content',
      },
      org,
    ),
    ...collectionRoutes(
      {
        ...common,
        type: 'authorization_server_scope',
        kindName: 'OAuth2Scope',
        path: `${base}/scopes`,
        idParam: 'scopeId',
        idPrefix: ID_PREFIX.scope,
        limits: PAGE_LIMITS.scopes,
        listParams: ['q', 'filter'],
        collection: (o, { authServerId }) => childrenOf(o, authServerId, o.state.authorizationServerScopes),
        parents: ({ authServerId }) => [authServerId],
        defaults: (body) => {
          requireText(body, 'name');
          return {
            system: false,
            metadataPublish: body.metadataPublish ?? 'NO_CLIENTS',
            consent: body.consent ?? 'IMPLICIT',
            default: body.default ?? false,
          };
        },
      },
      org,
    ),
    ...collectionRoutes(
      {
        ...common,
        type: 'authorization_server_claim',
        kindName: 'OAuth2Claim',
        path: `${base}/claims`,
        idParam: 'claimId',
        idPrefix: ID_PREFIX.claim,
        limits: PAGE_LIMITS.unpaged,
        collection: (o, { authServerId }) => childrenOf(o, authServerId, o.state.authorizationServerClaims),
        parents: ({ authServerId }) => [authServerId],
        defaults: (body) => {
          requireText(body, 'name');
          return { status: body.status ?? 'ACTIVE', system: false };
        },
        // Claims have no lifecycle operations: their status is set in the body (replaceOAuth2Claim).
        statusInBody: true,
      },
      org,
    ),
    ...collectionRoutes(
      {
        ...common,
        type: 'authorization_server_policy',
        kindName: 'AuthorizationServerPolicy',
        path: `${base}/policies`,
        idParam: 'policyId',
        idPrefix: ID_PREFIX.authorizationServerPolicy,
        limits: PAGE_LIMITS.unpaged,
        collection: (o, { authServerId }) => childrenOf(o, authServerId, o.state.authorizationServerPolicies),
        parents: ({ authServerId }) => [authServerId],
        defaults: (body) => {
          requireText(body, 'name');
          return {
            type: 'OAUTH_AUTHORIZATION_POLICY',
            status: 'ACTIVE',
            system: false,
            priority: body.priority ?? 1,
          };
        },
        cascadeDelete: ({ state }, id, { authServerId }) =>
          state.removeAuthorizationServerPolicy(authServerId, id),
        lifecycle: 'no-content',
      },
      org,
    ),
    ...collectionRoutes(
      {
        ...common,
        type: 'authorization_server_policy_rule',
        kindName: 'AuthorizationServerPolicyRule',
        path: `${base}/policies/{policyId}/rules`,
        idParam: 'ruleId',
        idPrefix: ID_PREFIX.authorizationServerPolicyRule,
        limits: PAGE_LIMITS.unpaged,
        collection: (o, { authServerId, policyId }) => {
          if (!childrenOf(o, authServerId, o.state.authorizationServerPolicies).has(policyId))
            throw notFound(policyId, 'AuthorizationServerPolicy');
          return o.state.authorizationServerPolicyRules.of(policyKey(authServerId, policyId));
        },
        parents: ({ authServerId, policyId }) => [authServerId, policyId],
        defaults: (body) => {
          requireText(body, 'name');
          // AuthorizationServerPolicyRuleRequest requires `conditions` and `type` (management.yaml).
          requireMember(body, 'conditions');
          requireText(body, 'type');
          return { status: 'ACTIVE', system: false, priority: body.priority ?? 1 };
        },
        lifecycle: 'no-content',
      },
      org,
    ),
  ];
}
