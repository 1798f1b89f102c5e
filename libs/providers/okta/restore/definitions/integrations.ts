import { randomBytes } from 'node:crypto';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { collectionDefinition } from '@libs/providers/okta/restore/collection-definition.js';
import {
  omit,
  type RestoreDefinition,
  SERVER_OWNED,
} from '@libs/providers/okta/restore/restore-definition.js';
import { caseless, changesFrom, objectAt } from './definition-helpers.js';

const byName = (record: ResourceRecord): string | null => caseless(record.data.name);

const clientOf = (data: OktaObject): OktaObject =>
  objectAt(objectAt(objectAt(data, 'protocol'), 'credentials'), 'client');

/** The record with `protocol.credentials.client.client_secret` set. */
function withClientSecret(record: ResourceRecord, secret: string): ResourceRecord {
  const protocol = objectAt(record.data, 'protocol');
  const credentials = objectAt(protocol, 'credentials');
  const client = { ...clientOf(record.data), client_secret: secret };
  return {
    ...record,
    data: { ...record.data, protocol: { ...protocol, credentials: { ...credentials, client } } },
  };
}

const PLACEHOLDER_SECRET =
  "Re-created with a random placeholder client secret (Okta never returns the real one to a backup): paste the client secret from the provider's console, sign-in through this identity provider fails until then";
const SAML_METADATA =
  "A re-created SAML identity provider is sent its backed-up Okta entity id (trust.audience) and signing key (signing.kid): if Okta answers others, give the provider Okta's new service provider metadata; the provider's own signing certificate must still be in Okta's IdP key store (trust.kid)";

const identityProviderWrites = collectionDefinition(
  { path: '/api/v1/idps', params: ['idpId'], lifecycle: true },
  {
    naturalKey: byName,
    notes: [PLACEHOLDER_SECRET, SAML_METADATA],
  },
);

/**
 * Identity Providers API. The client secret of an OIDC or social IdP is never in a backup
 * (okta-not-captured.ts): an update sends back the live one Okta answers (replaceIdentityProvider
 * replaces the whole protocol), a creation a random placeholder the admin replaces. Names are unique.
 */
const identityProvider: RestoreDefinition = {
  ...identityProviderWrites,
  async create(record, context, together) {
    const notes: string[] = [];
    let sent = record;
    if (clientOf(record.data).client_id !== undefined) {
      sent = withClientSecret(record, randomBytes(32).toString('base64url'));
      notes.push(PLACEHOLDER_SECRET);
    }
    if (objectAt(record.data, 'protocol').type === 'SAML2') notes.push(SAML_METADATA);
    const created = await identityProviderWrites.create!(sent, context, together);
    return { ...created, notes };
  },
  async update(record, live, context) {
    const current = await context.api.object({
      template: '/api/v1/idps/{idpId}',
      params: { idpId: live.id },
      signal: context.signal,
    });
    const secret = clientOf(current ?? {}).client_secret;
    const sent = typeof secret === 'string' ? withClientSecret(record, secret) : record;
    return identityProviderWrites.update!(sent, live, context);
  },
};

const HOOK_SECRET =
  'Hook secrets (an authentication header value, an OAuth client secret) are never returned by Okta: enter them again on re-created hooks, on updated event hooks (a replacement carries none) and on inline hooks whose channel a restore put back';

/** Whether the hook's channel authenticates with a secret Okta keeps write-only (a header value, an OAuth client secret). */
function hasSecret(hook: OktaObject): boolean {
  const channel = objectAt(hook, 'channel');
  const config = objectAt(channel, 'config');
  return channel.type === 'OAUTH' || (config.authScheme !== undefined && config.authScheme !== null);
}

const VERIFY =
  'A re-created or re-pointed event hook comes back UNVERIFIED: verify it once its endpoint answers (Okta delivers events only to ACTIVE, VERIFIED hooks)';

const eventHookWrites = collectionDefinition(
  {
    path: '/api/v1/eventHooks',
    params: ['eventHookId'],
    lifecycle: true,
    deactivateToDelete: true,
    body: (hook) => hook,
  },
  {
    writable: (data) => omit(data, [...SERVER_OWNED, 'verificationStatus']),
    naturalKey: byName,
    notes: [HOOK_SECRET, VERIFY],
  },
);

/**
 * Event Hooks API: created ACTIVE (createEventHook), replaced by PUT with its status (recorded:
 * Okta applies it), deleted only INACTIVE (deleteEventHook). `verificationStatus` is Okta's: a
 * new or re-pointed hook is UNVERIFIED until its endpoint answers Okta's verification request,
 * which a restore does not send.
 */
const eventHook: RestoreDefinition = {
  ...eventHookWrites,
  async create(record, context, together) {
    const created = await eventHookWrites.create!(record, context, together);
    return { ...created, notes: hasSecret(record.data) ? [VERIFY, HOOK_SECRET] : [VERIFY] };
  },
};

const inlineHookWrites = collectionDefinition(
  {
    path: '/api/v1/inlineHooks',
    params: ['inlineHookId'],
    lifecycle: true,
    deactivateToDelete: true,
    updateMethod: 'POST',
  },
  { naturalKey: byName, notes: [HOOK_SECRET] },
);

/**
 * Inline Hooks API: created ACTIVE, activated and deactivated by lifecycle operations (creation
 * and replacement ignore `status`, recorded), deleted only INACTIVE. Updated by updateInlineHook,
 * a partial update sending only what differs from the live hook, so that an unchanged channel
 * keeps the secret Okta holds.
 */
const inlineHook: RestoreDefinition = {
  ...inlineHookWrites,
  async create(record, context, together) {
    const created = await inlineHookWrites.create!(record, context, together);
    return { ...created, notes: hasSecret(record.data) ? [HOOK_SECRET] : [] };
  },
  async update(record, live, context) {
    const current = await context.api.object({
      template: '/api/v1/inlineHooks/{inlineHookId}',
      params: { inlineHookId: live.id },
      signal: context.signal,
    });
    const changes = changesFrom(omit(current ?? {}, SERVER_OWNED), omit(record.data, SERVER_OWNED), false);
    return inlineHookWrites.update!(
      { ...record, data: { ...changes, status: record.data.status } },
      live,
      context,
    );
  },
};

/** How a restore writes identity providers and hooks. */
export function integrationDefinitions() {
  return {
    identity_provider: identityProvider,
    event_hook: eventHook,
    inline_hook: inlineHook,
  } satisfies Record<string, RestoreDefinition>;
}
