import { validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { queryFlag } from '@libs/simulators/okta/http/request-body.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import { ID_PREFIX } from '@libs/simulators/okta/store/okta-ids.js';
import { collectionRoutes } from './collection-routes.js';
import { requireText } from './validation.js';

/** Behavior detection rule types (OpenAPI `BehaviorRuleType`). */
const BEHAVIOR_TYPES = ['ANOMALOUS_DEVICE', 'ANOMALOUS_IP', 'ANOMALOUS_LOCATION', 'VELOCITY'];

/**
 * What Okta derives in a custom app authenticator: `settings.oauthClientId`, its app's client id,
 * which is the app instance's id (recorded createAuthenticator and replaceAuthenticator: bodies
 * without it are answered with `oauthClientId` equal to `settings.appInstanceId`; the request
 * schema AuthenticatorKeyCustomApp has no such property). Other authenticators: nothing.
 */
function withOAuthClientId(body: Json): Json {
  const settings = body.settings as Json | undefined;
  if (body.key !== 'custom_app' || typeof settings?.appInstanceId !== 'string') return {};
  return { settings: { ...settings, oauthClientId: settings.appInstanceId } };
}

/**
 * `/api/v1/authenticators` (list, create with `activate`, get, replace, activate/deactivate
 * answering the authenticator; Okta offers no delete) and `/api/v1/behaviors` (behavior
 * detection rules, every verb; activate/deactivate answer the rule).
 */
export function securityRoutes(org: OrgContext): Route[] {
  return [
    ...collectionRoutes(
      {
        type: 'authenticator',
        kindName: 'Authenticator',
        path: '/api/v1/authenticators',
        idParam: 'authenticatorId',
        idPrefix: ID_PREFIX.authenticator,
        scopeFamily: 'okta.authenticators',
        limits: PAGE_LIMITS.unpaged,
        collection: ({ state }) => state.authenticators,
        defaults: (body, { url }) => {
          requireText(body, 'key');
          requireText(body, 'name');
          return {
            ...withOAuthClientId(body),
            status: queryFlag(url, 'activate', true) ? 'ACTIVE' : 'INACTIVE',
          };
        },
        createStatus: 200,
        replaceKeeps: ['key', 'type'],
        keepOnReplace: (_before, next) => ({ ...next, ...withOAuthClientId(next) }),
        deleteStatus: 204,
        lifecycle: 'object',
        audit: {
          target: 'Authenticator',
          events: {
            create: 'security.authenticator.create',
            update: 'security.authenticator.update',
            activate: 'security.authenticator.activate',
            deactivate: 'security.authenticator.deactivate',
          },
        },
      },
      org,
    ).filter((route) => route.method !== 'DELETE'),
    ...collectionRoutes(
      {
        type: 'behavior',
        kindName: 'BehaviorRule',
        path: '/api/v1/behaviors',
        idParam: 'behaviorId',
        idPrefix: ID_PREFIX.behavior,
        scopeFamily: 'okta.behaviors',
        limits: PAGE_LIMITS.unpaged,
        collection: ({ state }) => state.behaviors,
        defaults: (body) => {
          requireText(body, 'name');
          if (!BEHAVIOR_TYPES.includes(String(body.type)))
            throw validationFailed('type', `type: Must be one of ${BEHAVIOR_TYPES.join(', ')}`);
          return { status: 'ACTIVE' };
        },
        createStatus: 200,
        replaceKeeps: [],
        deleteStatus: 204,
        lifecycle: 'object',
        audit: {
          target: 'BehaviorRule',
          events: {
            create: 'security.behavior.create',
            update: 'security.behavior.update',
            delete: 'security.behavior.delete',
          },
        },
      },
      org,
    ),
  ];
}
