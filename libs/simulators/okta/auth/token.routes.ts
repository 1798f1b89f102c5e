import { json, type Reply } from '@libs/simulators/kit/http/reply.js';
import type { RequestContext, Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { ACCESS_TOKEN_LIFETIME_SECONDS, type OAuthClient } from './credential-store.js';

/**
 * Okta management scopes look like `okta.<resource>.<read|manage>` (OAuth 2.0 for Okta APIs), and
 * a few name a sub-resource, such as `okta.workflows.invoke.manage` (Okta Workflows "Invoke a flow
 * with an API endpoint", secured with OAuth 2.0).
 */
const OKTA_SCOPE = /^okta\.[A-Za-z]+(\.[A-Za-z]+)?\.(read|manage)$/;

/** RFC 7521 §4.2: the `client_assertion_type` of a JWT client assertion (private_key_jwt). */
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

function oauthError(status: number, error: string, description: string): Reply {
  const headers = status === 401 ? { 'WWW-Authenticate': 'Basic realm="okta"' } : undefined;
  return json(status, { error, error_description: description }, headers);
}

/** client_secret_basic (RFC 6749 §2.3.1) first, else client_secret_post. */
function clientCredentials(
  context: RequestContext,
  form: URLSearchParams,
): { id: string; secret: string } | undefined {
  const [scheme, encoded] = (context.headers.authorization ?? '').split(/\s+/, 2);
  if (scheme?.toLowerCase() === 'basic' && encoded) {
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    return {
      id: decodeURIComponent(decoded.slice(0, colon)),
      secret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  }
  const id = form.get('client_id');
  const secret = form.get('client_secret');
  return id && secret ? { id, secret } : undefined;
}

/**
 * The client a token request authenticates as: a `private_key_jwt` assertion when the form carries
 * one (RFC 7523 §2.2), else a client secret; undefined when neither proves a registered client.
 */
async function authenticatedClient(
  org: OrgContext,
  context: RequestContext,
  form: URLSearchParams,
): Promise<OAuthClient | undefined> {
  const assertion = form.get('client_assertion');
  if (assertion !== null) {
    const clientId = form.get('client_id');
    if (form.get('client_assertion_type') !== JWT_BEARER || !clientId) return undefined;
    return org.credentials.authenticateAssertion(clientId, assertion, `${org.baseUrl}/oauth2/v1/token`);
  }
  const given = clientCredentials(context, form);
  return given && org.credentials.authenticateClient(given.id, given.secret);
}

/**
 * `POST /oauth2/v1/token` of the org authorization server, client_credentials grant only.
 * Client authentication by client_secret_basic, client_secret_post or private_key_jwt (the
 * assertion's `aud` is this endpoint's full URL). The token carries
 * exactly the requested scopes, which must all have been granted to the client. Errors follow
 * RFC 6749 §5.2 with Okta's wording: 401 `invalid_client`, 400 `unsupported_grant_type`,
 * 400 `invalid_scope` (none requested, unknown, or not granted).
 */
export function tokenRoutes(org: OrgContext): Route[] {
  return [
    {
      method: 'POST',
      template: '/oauth2/v1/token',
      access: { kind: 'public' },
      handle: async (context) => {
        const form = new URLSearchParams(context.bodyText);
        const client = await authenticatedClient(org, context, form);
        if (!client)
          return oauthError(
            401,
            'invalid_client',
            'Client authentication failed. Either the client or the client credentials are invalid.',
          );
        const grantType = form.get('grant_type');
        if (grantType !== 'client_credentials')
          return oauthError(
            400,
            'unsupported_grant_type',
            `The authorization grant type is not supported by the authorization server. Configured grant types: [client_credentials].`,
          );
        const scopes = (form.get('scope') ?? '').split(/\s+/).filter(Boolean);
        if (scopes.length === 0)
          return oauthError(
            400,
            'invalid_scope',
            "The authorization server resource does not have any configured default scopes, 'scope' must be provided.",
          );
        const unknown = scopes.filter((s) => !OKTA_SCOPE.test(s));
        if (unknown.length > 0)
          return oauthError(
            400,
            'invalid_scope',
            `One or more scopes are not configured for the authorization server resource.`,
          );
        const notGranted = scopes.filter((s) => !client.grantedScopes.includes(s));
        if (notGranted.length > 0)
          return oauthError(
            400,
            'invalid_scope',
            `The following scopes are not allowed: ${notGranted.join(', ')}`,
          );
        return json(
          200,
          {
            token_type: 'Bearer',
            expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
            access_token: org.credentials.issueAccessToken(client.clientId, scopes),
            scope: scopes.join(' '),
          },
          { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
        );
      },
    },
  ];
}
