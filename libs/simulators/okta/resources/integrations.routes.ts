import { manageScopes } from '@libs/simulators/okta/auth/principal.js';
import { notFound, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { jsonText } from '@libs/simulators/kit/http/reply.js';
import { jsonBody } from '@libs/simulators/okta/http/request-body.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import { replaced, type Json } from '@libs/simulators/okta/store/entry.js';
import { cryptoRandom, ID_PREFIX, oktaId } from '@libs/simulators/okta/store/okta-ids.js';
import { collectionRoutes } from './collection-routes.js';
import { serialize } from './links.js';
import { refuseActiveDelete } from './lifecycle-gates.js';
import { addIdentityProviderMappings, dropMappingsOf } from './profile-mappings.routes.js';
import { requireMember, requireText } from './validation.js';

/**
 * The hook's channel without its write-only secrets: `config.authScheme.value` ("This secret
 * value is passed to your external service endpoint", EventHookChannelConfigAuthScheme) and an
 * OAuth channel's `config.clientSecret`. Okta keeps them and never answers them.
 */
export function withoutChannelSecrets(body: Json): Json {
  const channel = body.channel as Json | undefined;
  const config = channel?.config as Json | undefined;
  if (!channel || !config) return body;
  const { clientSecret: _secret, ...kept } = config;
  const authScheme = kept.authScheme as Json | undefined;
  if (authScheme) {
    const { value: _value, ...scheme } = authScheme;
    kept.authScheme = scheme;
  }
  return { ...body, channel: { ...channel, config: kept } };
}

/**
 * What Okta adds to a new SAML identity provider's protocol (recorded createIdentityProvider
 * answers): its own request signing key and the service provider entity id the IdP must trust,
 * unless the request names them (SamlSigningCredentials.kid and SamlTrustCredentials.audience are
 * writable in management.yaml's request schema).
 */
function samlServiceProvider(protocol: Json): Json {
  const credentials = (protocol.credentials ?? {}) as Json;
  const trust = (credentials.trust ?? {}) as Json;
  return {
    ...protocol,
    credentials: {
      ...credentials,
      trust: {
        ...trust,
        audience:
          trust.audience ??
          `https://www.okta.com/saml2/service-provider/sp${oktaId('', cryptoRandom, 18).toLowerCase()}`,
      },
      signing: credentials.signing ?? { kid: oktaId('', cryptoRandom, 43) },
    },
  };
}

/**
 * A SAML identity provider after replaceIdentityProvider: the signing key and audience the body
 * leaves out stay as they were (recorded replacements send no `protocol.credentials.signing` and
 * are answered with the IdP's signing kid unchanged); everything else is the body's.
 */
function keepSamlCredentials(before: Json, next: Json): Json {
  const protocol = next.protocol as Json | undefined;
  const previous = (before.protocol as Json | undefined)?.credentials as Json | undefined;
  if (protocol?.type !== 'SAML2' || !previous) return next;
  const credentials = (protocol.credentials ?? {}) as Json;
  const trust = (credentials.trust ?? {}) as Json;
  const audience = ((previous.trust ?? {}) as Json).audience;
  return {
    ...next,
    protocol: {
      ...protocol,
      credentials: {
        ...credentials,
        ...(credentials.signing === undefined && previous.signing !== undefined
          ? { signing: previous.signing }
          : {}),
        trust: trust.audience === undefined && audience !== undefined ? { ...trust, audience } : trust,
      },
    },
  };
}

/**
 * Identity providers (`/api/v1/idps`: every verb, lifecycle answering the IdP, created and
 * deleted with their profile mappings, one to each user type, SAML ones given Okta's service
 * provider entity id and signing key), event hooks
 * and inline hooks (`/api/v1/eventHooks`, `/api/v1/inlineHooks`: only INACTIVE hooks can be
 * deleted; inline hooks update by POST or PUT) and custom domains (`/api/v1/domains`, listed
 * as `{ "domains": [...] }`, not paged). Hook secrets are write-only (withoutChannelSecrets).
 */
export function integrationRoutes(org: OrgContext): Route[] {
  return [
    ...collectionRoutes(
      {
        type: 'identity_provider',
        kindName: 'IdentityProvider',
        path: '/api/v1/idps',
        idParam: 'idpId',
        idPrefix: ID_PREFIX.identityProvider,
        scopeFamily: 'okta.idps',
        limits: PAGE_LIMITS.identityProviders,
        listParams: ['q', 'type'],
        listScope: (url) => {
          const type = url.searchParams.get('type');
          return type ? (idp) => idp.type === type : undefined;
        },
        collection: ({ state }) => state.identityProviders,
        defaults: (body, { org: o, id }) => {
          requireText(body, 'name');
          const type = requireText(body, 'type');
          addIdentityProviderMappings(o.state, id, type);
          const protocol = body.protocol as Json | undefined;
          return {
            status: 'ACTIVE',
            // Recorded SAML IdPs answer no issuerMode unless they were given one.
            ...(protocol?.type === 'SAML2' && body.issuerMode === undefined
              ? {}
              : { issuerMode: body.issuerMode ?? 'ORG_URL' }),
            ...(protocol?.type === 'SAML2' ? { protocol: samlServiceProvider(protocol) } : {}),
          };
        },
        createStatus: 200,
        replaceKeeps: [],
        keepOnReplace: keepSamlCredentials,
        cascadeDelete: (o, id) => dropMappingsOf(o.state, id),
        deleteStatus: 204,
        lifecycle: 'object',
        audit: {
          target: 'IdentityProvider',
          events: {
            create: 'system.idp.lifecycle.create',
            update: 'system.idp.lifecycle.update',
            delete: 'system.idp.lifecycle.delete',
            activate: 'system.idp.lifecycle.activate',
            deactivate: 'system.idp.lifecycle.deactivate',
          },
        },
      },
      org,
    ),
    ...collectionRoutes(
      {
        type: 'event_hook',
        kindName: 'EventHook',
        path: '/api/v1/eventHooks',
        idParam: 'eventHookId',
        idPrefix: ID_PREFIX.eventHook,
        scopeFamily: 'okta.eventHooks',
        limits: PAGE_LIMITS.unpaged,
        collection: ({ state }) => state.eventHooks,
        stored: withoutChannelSecrets,
        defaults: (body, { org: o }) => {
          requireText(body, 'name');
          requireText(body, 'channel.config.uri');
          // EventHook requires `events` (management.yaml).
          requireMember(body, 'events');
          return {
            status: 'ACTIVE',
            verificationStatus: 'UNVERIFIED',
            createdBy: o.state.adminUserId,
          };
        },
        createStatus: 200,
        replaceKeeps: ['verificationStatus', 'createdBy'],
        guardDelete: refuseActiveDelete('event hook'),
        deleteStatus: 204,
        lifecycle: 'object',
        audit: {
          target: 'EventHook',
          events: {
            create: 'event_hook.created',
            delete: 'event_hook.deleted',
            activate: 'event_hook.activated',
          },
        },
      },
      org,
    ),
    ...collectionRoutes(
      {
        type: 'inline_hook',
        kindName: 'InlineHook',
        path: '/api/v1/inlineHooks',
        idParam: 'inlineHookId',
        idPrefix: ID_PREFIX.inlineHook,
        scopeFamily: 'okta.inlineHooks',
        limits: PAGE_LIMITS.unpaged,
        listParams: ['type'],
        listScope: (url) => {
          const type = url.searchParams.get('type');
          return type ? (hook) => hook.type === type : undefined;
        },
        collection: ({ state }) => state.inlineHooks,
        stored: withoutChannelSecrets,
        defaults: (body) => {
          requireText(body, 'name');
          requireText(body, 'type');
          requireText(body, 'channel.config.uri');
          // InlineHookCreate takes the hook type's version; 1.0.0 where it names none.
          return { status: 'ACTIVE', version: body.version ?? '1.0.0' };
        },
        createStatus: 200,
        updateMethods: ['POST', 'PUT'],
        replaceKeeps: ['type'],
        guardDelete: refuseActiveDelete('inline hook'),
        deleteStatus: 204,
        lifecycle: 'object',
        audit: {
          target: 'InlineHook',
          events: {
            create: 'inline_hook.created',
            delete: 'inline_hook.deleted',
            activate: 'inline_hook.activated',
          },
        },
      },
      org,
    ),
    ...collectionRoutes(
      {
        type: 'custom_domain',
        kindName: 'Domain',
        path: '/api/v1/domains',
        idParam: 'domainId',
        idPrefix: ID_PREFIX.customDomain,
        scopeFamily: 'okta.domains',
        limits: PAGE_LIMITS.unpaged,
        wrap: 'domains',
        stamps: [],
        collection: ({ state }) => state.customDomains,
        defaults: (body, { org: o }) => {
          const domain = requireText(body, 'domain').toLowerCase();
          if (!['MANUAL', 'OKTA_MANAGED'].includes(String(body.certificateSourceType)))
            throw validationFailed(
              'certificateSourceType',
              'certificateSourceType: Must be MANUAL or OKTA_MANAGED',
            );
          const brandId = [...o.state.brands.entries()].find(
            ([, brand]) => brand.data.isDefault === true,
          )?.[0];
          return {
            domain,
            validationStatus: 'NOT_STARTED',
            ...(brandId ? { brandId } : {}),
            dnsRecords: [
              {
                recordType: 'TXT',
                fqdn: `_oktaverification.${domain}`,
                values: [oktaId('', cryptoRandom, 32)],
              },
              {
                recordType: 'CNAME',
                fqdn: domain,
                values: [`${o.baseUrl.replace(/^https:\/\//, '')}.customdomains.okta.com`],
              },
            ],
          };
        },
        // Recorded createCustomDomain answers 201 (management.yaml lists 200).
        createStatus: 201,
        deleteStatus: 204,
      },
      org,
    ).filter((route) => route.method !== 'PUT'),
    replaceCustomDomain(org),
  ];
}

/**
 * replaceCustomDomain changes a domain's brand only (UpdateDomain: `brandId`; recorded: PUT
 * `{ brandId }` answers the domain). New domains are lower-cased and get a new TXT verification
 * value each time (recorded createCustomDomain).
 */
function replaceCustomDomain(org: OrgContext): Route {
  return {
    method: 'PUT',
    template: '/api/v1/domains/{domainId}',
    access: { kind: 'admin', scopes: manageScopes('okta.domains') },
    handle: (context) => {
      const current = org.state.customDomains.get(context.params.domainId);
      if (!current) throw notFound(context.params.domainId, 'Domain');
      const brandId = requireText(jsonBody(context), 'brandId');
      if (!org.state.brands.has(brandId)) throw validationFailed('brandId', `brandId: No brand ${brandId}`);
      const entry = replaced(current, { ...current.data, brandId });
      org.state.customDomains.set(context.params.domainId, entry);
      return jsonText(200, serialize('custom_domain', entry, org.baseUrl));
    },
  };
}
