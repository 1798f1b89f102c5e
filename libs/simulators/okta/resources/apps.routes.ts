import { OktaError, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { queryFlag } from '@libs/simulators/okta/http/request-body.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaId, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { appAssignmentRoutes } from './app-assignments.routes.js';
import { appCredentialRoutes, newClientSecret, newSigningKey } from './app-credentials.routes.js';
import { collectionRoutes } from './collection-routes.js';
import { appUserSchemaDocument } from './schema-documents.js';
import { requireText } from './validation.js';

/** Okta's `name` for apps created without one, per sign-on mode (catalog template names). */
const DEFAULT_APP_NAME: Record<string, string> = {
  AUTO_LOGIN: 'template_swa',
  BASIC_AUTH: 'template_basic_auth',
  BOOKMARK: 'bookmark',
  BROWSER_PLUGIN: 'template_swa',
  OPENID_CONNECT: 'oidc_client',
  SAML_1_1: 'template_saml_1_1',
  SAML_2_0: 'template_saml_2_0',
  SECURE_PASSWORD_STORE: 'template_sps',
  WS_FEDERATION: 'template_wsfed',
};

/**
 * Sign-on modes of the apps an admin builds in the App Integration Wizard (custom SAML and SWA
 * apps): created without `name`, Okta names them `<subdomain>_<label>_<n>` and their one link
 * `<name>_link` (recorded creations in TestAccResourceOktaAppSaml_crud, ..AutoLogin..).
 */
const CUSTOM_MODES = ['SAML_2_0', 'AUTO_LOGIN'];
const CUSTOM_NAME = /^[a-z0-9-]+_[a-z0-9]+_\d+$/;

/** Sign-on modes whose apps sign with a key of their own (recorded creations answer its `kid`). */
const SIGNING_MODES = ['SAML_2_0', 'SAML_1_1', 'WS_FEDERATION', 'OPENID_CONNECT'];
/** Okta's app signing certificates are valid for ten years. */
const KEY_VALIDITY_MS = 10 * 365 * 24 * 3600 * 1000;

/** `credentials` naming a new signing key of the app, which `/credentials/keys` lists. */
function withNewSigningKey(org: OrgContext, appId: string, credentials: Json): Json {
  const now = org.now();
  const key = newSigningKey(oktaTimestamp(now), oktaTimestamp(now + KEY_VALIDITY_MS));
  org.state.appKeys.of(appId).set(String(key.kid), { data: key });
  return { ...credentials, signing: { ...((credentials.signing ?? {}) as Json), kid: key.kid } };
}

/** OAuth 2.0 client authentication methods that use a client secret (Okta creates one with the app). */
const SECRET_METHODS = ['client_secret_basic', 'client_secret_post', 'client_secret_jwt'];

/**
 * Okta changes a custom app only while it is active: a PUT to an INACTIVE one answers 400
 * E0000024 (recorded in TestAccResourceOktaAppAutoLoginApplication_crud).
 */
function refuseInactiveCustomApp(app: Json): OktaError | undefined {
  const custom = CUSTOM_MODES.includes(String(app.signOnMode)) && CUSTOM_NAME.test(String(app.name));
  if (!custom || app.status === 'ACTIVE') return undefined;
  return new OktaError(400, 'E0000024', 'Bad request. This operation on app metadata is not yet supported.', [
    'This operation on app metadata is not yet supported: No active instances.',
  ]);
}

/**
 * An OIDC app's `credentials` as Okta answers a creation: `client_id` is the app id unless the
 * body names one (createApplication: "When not specified, client_id and application id are the
 * same"); a client authenticating with a secret gets its first secret.
 */
function oauthCredentials(org: OrgContext, id: string, credentials: Json): Json {
  const oauthClient = (credentials.oauthClient ?? {}) as Json;
  const method = oauthClient.token_endpoint_auth_method ?? 'client_secret_basic';
  if (SECRET_METHODS.includes(String(method))) {
    const secretId = oktaId(ID_PREFIX.clientSecret);
    org.state.appSecrets.of(id).set(secretId, { data: newClientSecret(secretId, oktaTimestamp(org.now())) });
  }
  return {
    ...credentials,
    oauthClient: {
      ...oauthClient,
      client_id: oauthClient.client_id ?? id,
      token_endpoint_auth_method: method,
    },
  };
}

/**
 * `/api/v1/apps` with their user and group assignments. An ACTIVE app cannot be deleted:
 * 403 E0000056 "Delete application forbidden." with the cause "The application must be
 * deactivated before deletion." (Okta Apps API). Activate/deactivate answer 200 `{}`. A new app
 * gets its user schema (`/api/v1/meta/schemas/apps/{appId}/default`) and the org's default app
 * sign-on policy (the system ACCESS_POLICY, `_links.accessPolicy`), as recorded creations show;
 * `name` is Okta's: taken on creation only ("You can't modify system-assigned properties, such
 * as `id`, `name`", replaceApplication).
 */
export function appRoutes(org: OrgContext): Route[] {
  const host = new URL(org.baseUrl).hostname.replace(/[^a-z0-9-]/gi, '-');
  let customApps = 0;
  const customName = (label: string) =>
    `${host}_${label.toLowerCase().replace(/[^a-z0-9]/g, '')}_${++customApps}`;
  return [
    ...collectionRoutes(
      {
        type: 'app',
        kindName: 'AppInstance',
        path: '/api/v1/apps',
        idParam: 'appId',
        idPrefix: ID_PREFIX.app,
        scopeFamily: 'okta.apps',
        limits: PAGE_LIMITS.apps,
        listParams: ['q', 'filter', 'expand', 'includeNonDeleted'],
        qFields: ['name', 'label'],
        collection: ({ state }) => state.apps,
        defaults: (body, { org: o, id, url }) => {
          const signOnMode = requireText(body, 'signOnMode');
          if (!(signOnMode in DEFAULT_APP_NAME))
            throw validationFailed('signOnMode', `signOnMode: Unsupported ${signOnMode}`);
          const label = requireText(body, 'label');
          const custom = body.name === undefined && CUSTOM_MODES.includes(signOnMode);
          const name = String(body.name ?? (custom ? customName(label) : DEFAULT_APP_NAME[signOnMode]));
          const now = oktaTimestamp(o.now());
          const given = (body.credentials ?? {
            userNameTemplate: { template: '${source.login}', type: 'BUILT_IN' },
            signing: {},
          }) as Json;
          const credentials = SIGNING_MODES.includes(signOnMode) ? withNewSigningKey(o, id, given) : given;
          o.state.appUserSchemas.of(id).set('default', {
            data: appUserSchemaDocument(
              o.baseUrl,
              { id, name, label: body.label },
              {},
              { created: now, lastUpdated: now },
            ),
          });
          return {
            name,
            status: queryFlag(url, 'activate', true) ? 'ACTIVE' : 'INACTIVE',
            accessibility: body.accessibility ?? {
              selfService: false,
              errorRedirectUrl: null,
              loginRedirectUrl: null,
            },
            visibility: withOwnLink(
              (body.visibility ?? {
                autoSubmitToolbar: false,
                hide: { iOS: false, web: false },
                appLinks: {},
              }) as Json,
              custom ? `${name}_link` : undefined,
            ),
            features: [],
            credentials: signOnMode === 'OPENID_CONNECT' ? oauthCredentials(o, id, credentials) : credentials,
            settings: body.settings ?? { app: {} },
          };
        },
        // `features` is read-only too (the OpenAPI Application): features change through their own API.
        stored: ({ name: _name, features: _features, ...body }) => body,
        linkPaths: (_app, { state }): Record<string, string> => {
          const policy = [...state.policies.valuesInOrder()].find(
            (p) => p.data.type === 'ACCESS_POLICY' && p.data.system === true,
          );
          return policy ? { accessPolicy: `/api/v1/policies/${String(policy.data.id)}` } : {};
        },
        createStatus: 200,
        keepOnReplace: (before, after) => keepEntitlementStatus(before, keepClientId(before, after)),
        guardReplace: refuseInactiveCustomApp,
        guardDelete: (app) =>
          app.status === 'ACTIVE'
            ? new OktaError(403, 'E0000056', 'Delete application forbidden.', [
                'The application must be deactivated before deletion.',
              ])
            : undefined,
        cascadeDelete: ({ state }, id) => state.removeApp(id),
        deleteStatus: 204,
        lifecycle: 'empty-object',
        audit: {
          target: 'AppInstance',
          events: {
            create: 'application.lifecycle.create',
            update: 'application.lifecycle.update',
            delete: 'application.lifecycle.delete',
            activate: 'application.lifecycle.activate',
            deactivate: 'application.lifecycle.deactivate',
          },
        },
      },
      org,
    ),
    ...appAssignmentRoutes(org),
    ...appCredentialRoutes(org),
  ];
}

/**
 * An OIDC app keeps its `client_id` through a replace that leaves it out: it is fixed when the
 * client is created (createApplication: "client_id and application id are the same" unless given).
 */
function keepClientId(before: Json, after: Json): Json {
  const clientId = ((before.credentials as Json | undefined)?.oauthClient as Json | undefined)?.client_id;
  const credentials = (after.credentials ?? {}) as Json;
  const oauthClient = credentials.oauthClient as Json | undefined;
  if (clientId === undefined || oauthClient === undefined || oauthClient.client_id !== undefined)
    return after;
  return { ...after, credentials: { ...credentials, oauthClient: { ...oauthClient, client_id: clientId } } };
}

/**
 * An app keeps its entitlement management status through a replace: `settings.emOptInStatus` is
 * read-only (ApplicationSettings), and replaceApplication ignores "system-assigned properties".
 */
function keepEntitlementStatus(before: Json, after: Json): Json {
  const status = (before.settings as Json | undefined)?.emOptInStatus;
  if (status === undefined) return after;
  return { ...after, settings: { ...((after.settings ?? {}) as Json), emOptInStatus: status } };
}

/** `visibility` with the app's own link (shown) added to the links the body names. */
function withOwnLink(visibility: Json, ownLink: string | undefined): Json {
  if (!ownLink) return visibility;
  return { ...visibility, appLinks: { [ownLink]: true, ...((visibility.appLinks ?? {}) as Json) } };
}
