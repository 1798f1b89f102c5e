import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { collectionDefinition } from '@libs/providers/okta/restore/collection-definition.js';
import {
  idParts,
  omit,
  type RestoreDefinition,
  SERVER_OWNED,
} from '@libs/providers/okta/restore/restore-definition.js';
import { withoutPaths } from './without-paths.js';

const SERVERS = '/api/v1/authorizationServers';

/** Fields Okta sets on every object of the Authorization Servers API, `system` (Okta made it) included. */
const OKTA_OWNED = [...SERVER_OWNED, 'system'];
const writable = (data: OktaObject) => omit(data, OKTA_OWNED);

/** `<parent ids>:<name>`: names are unique within their server (or policy), not across servers. */
const namedWithin = (record: ResourceRecord, ...more: unknown[]) =>
  [...idParts(record.id).slice(0, -1), ...more, record.data.name].map(String).join(':');

const madeByOkta = (what: string) => (data: OktaObject) => (data.system === true ? what : null);

/**
 * Policies and rules go one at a time by priority within their server (or policy), so that each
 * lands where the backup had it whatever Okta does to the others meanwhile.
 */
function byPriority(a: ResourceRecord, b: ResourceRecord): number {
  const parent = (record: ResourceRecord) => idParts(record.id).slice(0, -1).join(':');
  const priority = (record: ResourceRecord) => Number(record.data.priority ?? 0);
  return parent(a).localeCompare(parent(b)) || priority(a) - priority(b);
}

/**
 * Custom authorization servers: written without what Okta derives (`issuer`, `default`, the
 * signing key and its rotation times: createAuthorizationServer and the recorded
 * TestAccResourceOktaAuthServer_crud), ACTIVE or INACTIVE through `lifecycle/*`, deactivated
 * before deletion as recorded. The `default` server is Okta's (`/oauth2/default`).
 */
const authorizationServer = collectionDefinition(
  { path: SERVERS, params: ['authServerId'], lifecycle: true, deactivateToDelete: true },
  {
    writable: (data) =>
      withoutPaths(omit(data, [...SERVER_OWNED, 'issuer', 'default']), [
        'credentials.signing.kid',
        'credentials.signing.lastRotated',
        'credentials.signing.nextRotation',
      ]),
    naturalKey: (record) => String(record.data.name),
    managedBecause: (data) =>
      data.default === true
        ? 'Okta creates the default authorization server (issuer /oauth2/default) with the org'
        : null,
    notes: [
      'Signing keys are never returned by Okta: a re-created authorization server signs with new keys and has a new issuer (/oauth2/<new id>); resource servers must trust the new issuer and keys',
    ],
  },
);

/** Scopes (createOAuth2Scope, replaceOAuth2Scope): Okta makes the OpenID Connect ones (`system`). */
const authorizationServerScope = collectionDefinition(
  { path: `${SERVERS}/{authServerId}/scopes`, params: ['authServerId', 'scopeId'] },
  {
    writable,
    naturalKey: (record) => namedWithin(record),
    managedBecause: madeByOkta(
      'Okta creates the OpenID Connect scopes (openid, profile, email...) of every server',
    ),
  },
);

/**
 * Claims (createOAuth2Claim, replaceOAuth2Claim): no lifecycle operations, the status travels in
 * the body (recorded PUT with `status: INACTIVE`); a name is unique per claim type (an ID token
 * and an access token claim may share it). Okta makes the standard OpenID Connect ones.
 */
const authorizationServerClaim = collectionDefinition(
  { path: `${SERVERS}/{authServerId}/claims`, params: ['authServerId', 'claimId'], body: (data) => data },
  {
    writable,
    naturalKey: (record) => namedWithin(record, record.data.claimType),
    managedBecause: madeByOkta('Okta creates the standard OpenID Connect claims of every server'),
  },
);

/**
 * Access policies of a server, `<authServerId>:<policyId>`, by priority. Their
 * `conditions.clients.include` names OAuth clients (app ids), rewritten through the run's ids:
 * apps are restored first (okta-restore-order.ts).
 */
const authorizationServerPolicy = collectionDefinition(
  { path: `${SERVERS}/{authServerId}/policies`, params: ['authServerId', 'policyId'], lifecycle: true },
  {
    writable,
    naturalKey: (record) => namedWithin(record),
    managedBecause: madeByOkta('Okta creates this policy with its server'),
    sequence: byPriority,
  },
);

/**
 * Rules of a server's policy, `<authServerId>:<policyId>:<ruleId>`, by priority; token inline
 * hooks they name are restored before them (okta-restore-order.ts). System rules cannot be
 * deleted ("You can't delete system rules").
 */
const authorizationServerPolicyRule = collectionDefinition(
  {
    path: `${SERVERS}/{authServerId}/policies/{policyId}/rules`,
    params: ['authServerId', 'policyId', 'ruleId'],
    lifecycle: true,
  },
  {
    writable,
    naturalKey: (record) => namedWithin(record),
    managedBecause: madeByOkta("Okta creates this rule with its policy (a system rule can't be deleted)"),
    sequence: byPriority,
  },
);

/** How a restore writes the authorization servers category (Authorization Servers API). */
export function authorizationServerDefinitions() {
  return {
    authorization_server: authorizationServer,
    authorization_server_scope: authorizationServerScope,
    authorization_server_claim: authorizationServerClaim,
    authorization_server_policy: authorizationServerPolicy,
    authorization_server_policy_rule: authorizationServerPolicyRule,
  } satisfies Record<string, RestoreDefinition>;
}
