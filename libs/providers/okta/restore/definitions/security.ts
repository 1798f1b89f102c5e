import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { collectionDefinition } from '@libs/providers/okta/restore/collection-definition.js';
import {
  omit,
  type RestoreDefinition,
  SERVER_OWNED,
} from '@libs/providers/okta/restore/restore-definition.js';
import { caseless, objectAt } from './definition-helpers.js';
import { integrationDefinitions } from './integrations.js';
import { policyDefinitions } from './policies.js';

/**
 * Network Zones API. A replacement keeps the zone's type (replaceNetworkZone); Identity Engine
 * orgs delete only INACTIVE zones (deleteNetworkZone), and none a policy still uses. The status
 * goes in the body as well, as recorded replacements send it (Okta applies it; the lifecycle
 * operation that follows answers 200 for a zone already there). Names are unique.
 */
const networkZone = collectionDefinition(
  {
    path: '/api/v1/zones',
    params: ['zoneId'],
    lifecycle: true,
    deactivateToDelete: true,
    body: (zone) => zone,
  },
  {
    writable: (data) => omit(data, [...SERVER_OWNED, 'system']),
    naturalKey: (record) => caseless(record.data.name),
    managedBecause: (data) =>
      data.system === true
        ? 'Okta creates the system network zones (LegacyIpZone, BlockedIpZone...) with the org and never deletes them'
        : null,
    notes: [
      'A zone that a policy or rule still names cannot be deleted: Okta refuses until they no longer use it',
    ],
  },
);

/** Trusted Origins API: every verb, ACTIVE/INACTIVE through lifecycle operations; origins are unique. */
const trustedOrigin = collectionDefinition(
  { path: '/api/v1/trustedOrigins', params: ['trustedOriginId'], lifecycle: true },
  { naturalKey: (record) => caseless(record.data.origin) },
);

/** Authenticator keys an org may hold more than once (custom app and IdP authenticators). */
const REPEATABLE_AUTHENTICATORS = ['custom_app', 'external_idp'];

/** An authenticator without what Okta derives: a custom app authenticator's `oauthClientId` (its app's). */
function authenticatorWritable(data: OktaObject): OktaObject {
  const kept = omit(data, SERVER_OWNED);
  return kept.settings === undefined
    ? kept
    : { ...kept, settings: omit(objectAt(kept, 'settings'), ['oauthClientId']) };
}

/**
 * Authenticators API: created INACTIVE (`activate=false`) and activated when they were ACTIVE,
 * replaced by PUT; Okta offers no deletion. The password and email authenticators come with every
 * org. Keys are unique, except for custom app and IdP authenticators, told apart by name.
 */
const authenticator = collectionDefinition(
  {
    path: '/api/v1/authenticators',
    params: ['authenticatorId'],
    lifecycle: true,
    noDelete: true,
    createQuery: { activate: 'false' },
  },
  {
    writable: authenticatorWritable,
    naturalKey: (record) => {
      const key = caseless(record.data.key);
      return key && REPEATABLE_AUTHENTICATORS.includes(key) ? `${key}:${caseless(record.data.name)}` : key;
    },
    managedBecause: (data) =>
      data.key === 'okta_password' || data.key === 'okta_email'
        ? 'Okta creates the password and email authenticators with every org and never deletes them'
        : null,
    notes: [
      'Okta has no operation that deletes an authenticator: a prune leaves authenticators added since the backup (deactivate them)',
      'Okta refuses to deactivate an authenticator that an enrollment policy still uses: run the restore again once the policies are restored',
      "A Duo authenticator's secret key is never returned by Okta: enter it again",
    ],
  },
);

/** Behavior Detection API: every verb, ACTIVE/INACTIVE through lifecycle operations (a replacement ignores `status`, recorded). */
const behavior = collectionDefinition(
  { path: '/api/v1/behaviors', params: ['behaviorId'], lifecycle: true },
  { naturalKey: (record) => caseless(record.data.name) },
);

/**
 * How a restore writes the security types: network zones, trusted origins, authenticators,
 * behavior detection rules, policies and their rules, identity providers and hooks.
 */
export function securityDefinitions() {
  return {
    network_zone: networkZone,
    trusted_origin: trustedOrigin,
    authenticator,
    behavior,
    ...policyDefinitions(),
    ...integrationDefinitions(),
  } satisfies Record<string, RestoreDefinition>;
}
