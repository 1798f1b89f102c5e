import { randomBytes } from 'node:crypto';

import { manageScopes, readScopes } from '@libs/simulators/okta/auth/principal.js';
import { notFound, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { empty, jsonText } from '@libs/simulators/kit/http/reply.js';
import { jsonBody } from '@libs/simulators/okta/http/request-body.js';
import type { RequestContext, Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { listReply } from '@libs/simulators/okta/query/list-page.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import { replaced, type Entry, type Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { collectionRoutes } from './collection-routes.js';
import { refuseActiveDelete } from './lifecycle-gates.js';
import { serialize } from './links.js';

/**
 * The capabilities a feature's PUT sets (updateFeatureForApplication, "supports partial
 * updates"): its request is a CapabilitiesObject (`create`, `update`) for USER_PROVISIONING and
 * a CapabilitiesInboundProvisioningObject (`importSettings` and `importRules`, both required) for
 * INBOUND_PROVISIONING; anything else in the body is not a capability of that feature (recorded:
 * an INBOUND_PROVISIONING feature never answers `create` or `update`).
 * @throws OktaError 400 E0000001 when an INBOUND_PROVISIONING body lacks a required object
 */
function featureCapabilities(featureName: string, body: Json): Json {
  const inbound = featureName === 'INBOUND_PROVISIONING';
  const keys = inbound ? ['importSettings', 'importRules'] : ['create', 'update'];
  if (inbound)
    for (const key of keys)
      if (body[key] === null || typeof body[key] !== 'object')
        throw validationFailed(key, `${key}: The field cannot be left blank`);
  return Object.fromEntries(Object.entries(body).filter(([key]) => keys.includes(key)));
}

/** Random text of `length` characters; the generator passes its seeded PRNG. */
export type RandomText = (length: number) => string;

const cryptoText: RandomText = (length) => randomBytes(length).toString('base64url').slice(0, length);

/** A new OAuth 2.0 client secret as Okta answers it: the secret in clear and its hash. */
export function newClientSecret(id: string, now: string, random: RandomText = cryptoText): Json {
  return {
    id,
    created: now,
    lastUpdated: now,
    status: 'ACTIVE',
    client_secret: random(64),
    secret_hash: random(22),
  };
}

/**
 * What hangs off an app besides assignments: `features` (provisioning features; apps without
 * provisioning answer 400), `credentials/keys` (signing keys, public parts only),
 * `credentials/secrets` (OAuth 2.0 client secrets of OIDC apps, served with the secret in
 * clear as Okta does; only INACTIVE ones can be deleted) and
 * `PUT /api/v1/apps/{appId}/policies/{policyId}` (assigns the app's sign-on policy, shown as
 * `_links.accessPolicy`).
 */
export function appCredentialRoutes(org: OrgContext): Route[] {
  const read = { kind: 'admin', scopes: readScopes('okta.apps') } as const;
  const write = { kind: 'admin', scopes: manageScopes('okta.apps') } as const;
  const { state } = org;
  const appOf = (appId: string): Entry => {
    const app = state.apps.get(appId);
    if (!app) throw notFound(appId, 'AppInstance');
    return app;
  };
  const features = (context: RequestContext) => {
    appOf(context.params.appId);
    const list = state.appFeatures.peek(context.params.appId);
    if (!list || list.size === 0)
      throw validationFailed('features', 'Provisioning is not supported for this application');
    return list;
  };
  const feature = (context: RequestContext) => {
    const entry = features(context).get(context.params.featureName);
    if (!entry) throw notFound(context.params.featureName, 'ApplicationFeature');
    return entry;
  };
  const keys = (context: RequestContext) => (
    appOf(context.params.appId),
    state.appKeys.of(context.params.appId)
  );
  const text = (type: 'app_feature' | 'app_signing_key', entry: Entry, appId: string) =>
    serialize(type, entry, org.baseUrl, [appId]);

  return [
    {
      method: 'GET',
      template: '/api/v1/apps/{appId}/features',
      access: read,
      handle: (context) =>
        listReply(context, org.baseUrl, features(context), {
          limits: PAGE_LIMITS.unpaged,
          params: [],
          serialize: (e) => text('app_feature', e, context.params.appId),
        }),
    },
    {
      method: 'GET',
      template: '/api/v1/apps/{appId}/features/{featureName}',
      access: read,
      handle: (context) => jsonText(200, text('app_feature', feature(context), context.params.appId)),
    },
    {
      method: 'PUT',
      template: '/api/v1/apps/{appId}/features/{featureName}',
      access: write,
      handle: (context) => {
        const current = feature(context);
        const body = (jsonBody(context) ?? {}) as Json;
        const given = featureCapabilities(context.params.featureName, body);
        const capabilities = { ...((current.data.capabilities ?? {}) as Json), ...given };
        const entry = replaced(current, { ...current.data, capabilities });
        state.appFeatures.of(context.params.appId).set(context.params.featureName, entry);
        return jsonText(200, text('app_feature', entry, context.params.appId));
      },
    },
    {
      method: 'GET',
      template: '/api/v1/apps/{appId}/credentials/keys',
      access: read,
      handle: (context) =>
        listReply(context, org.baseUrl, keys(context), {
          limits: PAGE_LIMITS.unpaged,
          params: [],
          serialize: (e) => text('app_signing_key', e, context.params.appId),
        }),
    },
    {
      method: 'GET',
      template: '/api/v1/apps/{appId}/credentials/keys/{keyId}',
      access: read,
      handle: (context) => {
        const entry = keys(context).get(context.params.keyId);
        if (!entry) throw notFound(context.params.keyId, 'JsonWebKey');
        return jsonText(200, text('app_signing_key', entry, context.params.appId));
      },
    },
    {
      method: 'PUT',
      template: '/api/v1/apps/{appId}/policies/{policyId}',
      access: write,
      handle: ({ params }) => {
        const app = appOf(params.appId);
        if (!state.policies.has(params.policyId)) throw notFound(params.policyId, 'Policy');
        const entry = replaced(app, { ...app.data, lastUpdated: oktaTimestamp(org.now()) });
        state.apps.set(params.appId, {
          ...entry,
          linkPaths: { ...entry.linkPaths, accessPolicy: `/api/v1/policies/${params.policyId}` },
        });
        return empty(204);
      },
    },
    ...collectionRoutes(
      {
        type: 'app_client_secret',
        kindName: 'OAuth2ClientSecret',
        path: '/api/v1/apps/{appId}/credentials/secrets',
        idParam: 'secretId',
        idPrefix: ID_PREFIX.clientSecret,
        scopeFamily: 'okta.apps',
        limits: PAGE_LIMITS.unpaged,
        collection: (o, { appId }) => {
          const app = appOf(appId);
          if (app.data.signOnMode !== 'OPENID_CONNECT')
            throw validationFailed('signOnMode', 'Client secrets exist for OAuth 2.0 clients only');
          return o.state.appSecrets.of(appId);
        },
        parents: ({ appId }) => [appId],
        defaults: (_body, { org: o, id }) => newClientSecret(id, oktaTimestamp(o.now())),
        optionalBody: true,
        createStatus: 201,
        updateMethods: [],
        guardDelete: refuseActiveDelete('client secret', 400),
        deleteStatus: 204,
        lifecycle: 'object',
      },
      org,
    ),
  ];
}

/** A signing key's public JWK as listApplicationKeys answers it (no private parts). */
export function newSigningKey(created: string, expiresAt: string, random: RandomText = cryptoText): Json {
  return {
    kty: 'RSA',
    created,
    lastUpdated: created,
    expiresAt,
    kid: random(43),
    use: 'sig',
    e: 'AQAB',
    n: random(342),
    x5c: [random(800)],
    'x5t#S256': random(43),
  };
}
