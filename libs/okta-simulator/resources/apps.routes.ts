import { OktaError, validationFailed } from '../http/okta-error.js';
import { queryFlag } from '../http/request-body.js';
import type { Route } from '../http/router.js';
import type { OrgContext } from '../org-context.js';
import { PAGE_LIMITS } from '../query/page-limits.js';
import { ID_PREFIX, oktaTimestamp } from '../store/okta-ids.js';
import { appAssignmentRoutes } from './app-assignments.routes.js';
import { appCredentialRoutes } from './app-credentials.routes.js';
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
 * `/api/v1/apps` with their user and group assignments. An ACTIVE app cannot be deleted:
 * 403 E0000056 "Delete application forbidden." with the cause "The application must be
 * deactivated before deletion." (Okta Apps API). Activate/deactivate answer 200 `{}`. A new app
 * gets its user schema (`/api/v1/meta/schemas/apps/{appId}/default`).
 */
export function appRoutes(org: OrgContext): Route[] {
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
          requireText(body, 'label');
          const signOnMode = requireText(body, 'signOnMode');
          if (!(signOnMode in DEFAULT_APP_NAME))
            throw validationFailed('signOnMode', `signOnMode: Unsupported ${signOnMode}`);
          const name = body.name ?? DEFAULT_APP_NAME[signOnMode];
          const now = oktaTimestamp(o.now());
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
            visibility: body.visibility ?? {
              autoSubmitToolbar: false,
              hide: { iOS: false, web: false },
              appLinks: {},
            },
            features: body.features ?? [],
            credentials: body.credentials ?? {
              userNameTemplate: { template: '${source.login}', type: 'BUILT_IN' },
              signing: {},
            },
            settings: body.settings ?? { app: {} },
          };
        },
        createStatus: 200,
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
