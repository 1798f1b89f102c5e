import { randomBytes } from 'node:crypto';

import { notFound, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { empty, jsonText } from '@libs/simulators/kit/http/reply.js';
import { jsonBody } from '@libs/simulators/okta/http/request-body.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { listReply } from '@libs/simulators/okta/query/list-page.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import type { Entry, Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaId, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { manageScopes, readScopes } from './principal.js';

/** "An underscore-concatenated, lowercased API service integration name" -> a display name. */
function displayName(type: string): string {
  return type
    .split(/[_-]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * `/integrations/api/v1/api-services`: installing an API service integration registers an OAuth
 * client of the org authorization server with the granted scopes. POST answers 201 with the
 * instance and its one-time `clientSecret` (never returned again); the instance id is the OAuth
 * client id. DELETE revokes the client and its tokens. (OpenAPI ApiServiceIntegrations; recorded
 * traffic of TestAPIServiceIntegration_crd.)
 */
export function apiServiceRoutes(org: OrgContext): Route[] {
  const read = { kind: 'admin', scopes: readScopes('okta.oauthIntegrations') } as const;
  const write = { kind: 'admin', scopes: manageScopes('okta.oauthIntegrations') } as const;
  const path = '/integrations/api/v1/api-services';
  const withLinks = (data: Json): Json => ({
    ...data,
    _links: {
      self: { href: `${org.baseUrl}${path}/${String(data.id)}`, hints: { allow: ['GET', 'DELETE'] } },
      client: { href: `${org.baseUrl}/oauth2/v1/clients/${String(data.id)}`, hints: { allow: ['GET'] } },
    },
  });
  const existing = (id: string): Entry => {
    const entry = org.state.apiServices.get(id);
    if (!entry) throw notFound(id, 'ApiServiceIntegrationInstance');
    return entry;
  };

  return [
    {
      method: 'POST',
      template: path,
      access: write,
      handle: (context) => {
        const body = jsonBody(context);
        if (typeof body.type !== 'string' || body.type.trim() === '')
          throw validationFailed('type', 'type: The field cannot be left blank');
        const scopes = body.grantedScopes;
        if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every((s) => typeof s === 'string'))
          throw validationFailed('grantedScopes', 'grantedScopes: The field cannot be left blank');
        const id = oktaId(ID_PREFIX.app);
        const clientSecret = randomBytes(48).toString('base64url');
        const data: Json = {
          id,
          type: body.type,
          name: displayName(body.type),
          createdAt: oktaTimestamp(org.now()),
          createdBy: org.state.adminUserId,
          grantedScopes: scopes,
          properties: body.properties ?? {},
        };
        org.state.apiServices.set(id, { data });
        org.credentials.registerClient({ clientId: id, clientSecret, grantedScopes: scopes as string[] });
        const { grantedScopes, properties, ...head } = data;
        return jsonText(201, JSON.stringify(withLinks({ ...head, clientSecret, grantedScopes, properties })));
      },
    },
    {
      method: 'GET',
      template: path,
      access: read,
      handle: (context) =>
        listReply(context, org.baseUrl, org.state.apiServices, {
          limits: PAGE_LIMITS.unpaged,
          params: [],
          serialize: (e) => JSON.stringify(withLinks(e.data)),
        }),
    },
    {
      method: 'GET',
      template: `${path}/{apiServiceId}`,
      access: read,
      handle: (context) =>
        jsonText(200, JSON.stringify(withLinks(existing(context.params.apiServiceId).data))),
    },
    {
      method: 'DELETE',
      template: `${path}/{apiServiceId}`,
      access: write,
      handle: (context) => {
        existing(context.params.apiServiceId);
        org.state.apiServices.delete(context.params.apiServiceId);
        org.credentials.removeClient(context.params.apiServiceId);
        return empty(204);
      },
    },
  ];
}
