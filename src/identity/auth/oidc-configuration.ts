import { randomBytes } from 'node:crypto';
import {
  type Adapter,
  type Configuration,
  errors,
  interactionPolicy,
  type KoaContextWithOIDC,
  type ResourceServerInfo,
} from 'oidc-provider';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { html, HTML_PAGE_HEADERS, renderPage } from '@app/identity/sign-in/html.js';
import type { OutboundFetch } from '@app/identity/sign-in/outbound-fetch.js';
import { assertClientPolicy } from './client-policy.js';
import { API_SCOPE, MCP_SCOPE } from '@app/common/api-scope.js';
import { SIGNING_ALG, type SigningKeySet } from './signing-keys.service.js';

/** Leeway for clock skew between replicas when checking `exp`/`nbf`, seconds. */
export const CLOCK_TOLERANCE_SECONDS = 5;

/**
 * Every endpoint of the authorization server, all under /oauth/ so the HTTP app can hand that
 * prefix to oidc-provider and keep the rest for the API. Discovery stays at oidc-provider's
 * fixed /.well-known/openid-configuration (also served at RFC 8414's location).
 */
const ROUTES = {
  authorization: '/oauth/authorize',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
  code_verification: '/oauth/device',
  credential: '/oauth/credential',
  device_authorization: '/oauth/device/auth',
  end_session: '/oauth/logout',
  introspection: '/oauth/introspect',
  jwks: '/oauth/jwks',
  pushed_authorization_request: '/oauth/par',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  token: '/oauth/token',
  userinfo: '/oauth/userinfo',
};

/** Path prefix of the endpoints above. */
export const OAUTH_PATH_PREFIX = '/oauth/';

/** Where a sign-in or consent page of an authorization request lives: `/interaction/<uid>`. */
export const INTERACTION_PATH = '/interaction';

/**
 * Lifetime of an authorization request's interaction, and so of its `_interaction` cookies,
 * seconds: spec "Authentication" item 6 caps cookies of OAuth flows at 10 minutes.
 */
const INTERACTION_TTL_SECONDS = 600;

/** Largest Client ID Metadata Document read, bytes (the draft's §4 suggests 5 KB). */
const METADATA_DOCUMENT_LIMIT_BYTES = 5 * 1024;

/** The JWS algorithm lists oidc-provider accepts or offers; HMAC algorithms are left out on purpose. */
const SIGNING_ALG_SETTINGS = [
  'attestSigningAlgValues',
  'authorizationSigningAlgValues',
  'clientAuthSigningAlgValues',
  'dPoPSigningAlgValues',
  'idTokenSigningAlgValues',
  'introspectionSigningAlgValues',
  'requestObjectSigningAlgValues',
  'userinfoSigningAlgValues',
];

/** What the configuration needs from the rest of the service. */
export interface OidcHooks {
  /** True while the account (formatAccountSubject) may still act: its membership exists. */
  accountExists(accountId: string): Promise<boolean>;
  /** The account of the request's session cookie, if it carries a live one. */
  sessionAccount(ctx: KoaContextWithOIDC): Promise<string | undefined>;
  /** Spends one fetch of the caller's client-registration budget; false when it is spent. */
  allowMetadataFetch(ctx: KoaContextWithOIDC): Promise<boolean>;
  /** `fetch` for Client ID Metadata Documents (SSRF-guarded). */
  metadataFetch: OutboundFetch;
}

/**
 * oidc-provider's configuration for this service:
 * - grants: `client_credentials` for integration clients; `authorization_code` with PKCE S256
 *   for every other client, confidential or not (RFC 9700 §2.1.1), and `refresh_token`, rotated
 *   at each use for public clients (oidc-provider's default `rotateRefreshToken`; a reused one
 *   revokes its whole grant);
 * - clients: integration clients, RFC 7591 registration (open, rate-limited at mount) and
 *   Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document-02), under the
 *   rules of client-policy.ts;
 * - tokens: RFC 9068 JWTs signed ES256 with our keys for exactly one resource (RFC 8707): the
 *   API (`config.API_RESOURCE`, scope `api`), the default when `resource` is absent, or the MCP
 *   endpoint (`config.MCP_RESOURCE`, scope `mcp`); any other value is `invalid_target`, for every
 *   grant;
 * - people: the account is a member of a team (account-subject.ts); signing in happens on our
 *   own interaction pages, which require the service's session cookie, and consent is asked
 *   once per client.
 *
 * Only ES256 is enabled anywhere a signature algorithm is chosen. Besides matching the keys,
 * this keeps HS* out: HMAC would be keyed by the client secret, which is stored only hashed.
 */
export function buildOidcConfiguration(options: {
  config: AppConfig;
  keys: SigningKeySet;
  adapter: (model: string) => Adapter;
  hooks: OidcHooks;
}): Configuration {
  const { config, keys, adapter, hooks } = options;
  const resourceServers = protectedResources(config);
  return {
    adapter,
    jwks: { keys: keys.privateJwks },
    routes: ROUTES,
    scopes: [API_SCOPE, MCP_SCOPE],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: SIGNING_ALG,
      token_endpoint_auth_method: 'client_secret_basic',
    },
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    responseTypes: ['code'],
    pkce: { required: () => true },
    enabledJWA: Object.fromEntries(SIGNING_ALG_SETTINGS.map((setting) => [setting, [SIGNING_ALG]])),
    ttl: {
      ClientCredentials: config.ACCESS_TOKEN_TTL,
      AccessToken: config.ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      IdToken: config.ACCESS_TOKEN_TTL,
      RefreshToken: config.REFRESH_TOKEN_TTL,
      Grant: config.REFRESH_TOKEN_TTL,
      Interaction: INTERACTION_TTL_SECONDS,
      Session: config.SESSION_ABSOLUTE_TIMEOUT,
    },
    findAccount: async (_ctx, sub) =>
      (await hooks.accountExists(sub)) ? { accountId: sub, claims: async () => ({ sub }) } : undefined,
    interactions: {
      url: async (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}`,
      policy: interactionPolicyFor(config, hooks),
    },
    // A refresh token for every client allowed the grant, without OpenID's offline_access
    // scope, and independent of the sign-in session: it ends by expiry or revocation.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    // oidc-provider runs the validator of each extra property on every client it builds: that
    // is where the service's client rules apply. `software_id` (RFC 7591 §2) is kept as is.
    extraClientMetadata: {
      properties: ['software_id'],
      validator: (_ctx, key, _value, metadata) => {
        if (key === 'software_id') assertClientPolicy(metadata);
      },
    },
    fetch: hooks.metadataFetch,
    fetchResponseBodyLimits: {
      'client_id metadata document': METADATA_DOCUMENT_LIMIT_BYTES,
      jwks_uri: METADATA_DOCUMENT_LIMIT_BYTES * 4,
      sector_identifier_uri: METADATA_DOCUMENT_LIMIT_BYTES,
    },
    renderError: async (ctx, out) => {
      ctx.set(HTML_PAGE_HEADERS as Record<string, string>);
      ctx.type = 'html';
      ctx.body = renderPage(
        'Authorization failed',
        html`<h1>Authorization failed</h1>
          <p class="error">${out.error}: ${out.error_description}</p>`,
      );
    },
    features: {
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      registration: {
        enabled: true,
        initialAccessToken: false,
        issueRegistrationAccessToken: false,
        idFactory: () => `rc_${randomBytes(16).toString('base64url')}`,
      },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        allowFetch: (ctx: KoaContextWithOIDC) => hooks.allowMetadataFetch(ctx),
        // Seconds a document is reused without a new fetch: its Cache-Control max-age (or
        // Expires), kept within these bounds.
        cacheDuration: { min: 60, max: 86400 },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => config.API_RESOURCE,
        getResourceServerInfo: async (_ctx: unknown, resourceIndicator: string) => {
          const server = resourceServers.get(resourceIndicator);
          if (!server) throw new errors.InvalidTarget();
          return server;
        },
      },
      // Off: oidc-provider's demo pages (ours are in interaction/), OpenID endpoints the API has
      // no use for, and sender-constrained tokens the API cannot verify (a DPoP-bound token
      // must not work as a plain bearer token).
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      introspection: { enabled: false },
      dPoP: { enabled: false },
    },
  };
}

/**
 * oidc-provider's login and consent prompts, each with one more condition:
 * - login: the request must carry this service's session cookie for the same account as
 *   oidc-provider's own session, so signing out of the service (or its session timing out)
 *   also stops silent authorizations;
 * - consent: the grant must hold the scope of every resource the request names (the API's when
 *   it names none). oidc-provider only asks for consent about scopes the request names, so a
 *   request naming none would otherwise get a token without the person ever seeing the consent
 *   page.
 */
function interactionPolicyFor(config: AppConfig, hooks: OidcHooks) {
  const { Check, base } = interactionPolicy;
  const policy = base();
  policy.get('login')?.checks.push(
    new Check('no_service_session', 'Sign-in to this service is required', 'login_required', async (ctx) => {
      const account = await hooks.sessionAccount(ctx);
      return account === undefined || account !== ctx.oidc.session?.accountId;
    }),
  );
  policy.get('consent')?.checks.push(
    new Check('api_not_granted', 'Access to the API was not granted', 'consent_required', (ctx) =>
      requestedResources(config, ctx.oidc.params?.resource).some((resource) => {
        const granted = ctx.oidc.grant?.getResourceScope(resource).split(' ') ?? [];
        return !granted.includes(protectedResources(config).get(resource)?.scope ?? API_SCOPE);
      }),
    ),
  );
  return policy;
}

/**
 * The protected resources tokens are issued for, by RFC 8707 resource indicator: the API and the
 * MCP endpoint, each with its one scope (the team role decides the rest).
 */
export function protectedResources(
  config: Pick<AppConfig, 'API_RESOURCE' | 'MCP_RESOURCE' | 'ACCESS_TOKEN_TTL'>,
): ReadonlyMap<string, ResourceServerInfo & { scope: string }> {
  const server = (audience: string, scope: string) => ({
    scope,
    audience,
    accessTokenTTL: config.ACCESS_TOKEN_TTL,
    accessTokenFormat: 'jwt' as const,
    jwt: { sign: { alg: SIGNING_ALG } },
  });
  return new Map([
    [config.API_RESOURCE, server(config.API_RESOURCE, API_SCOPE)],
    [config.MCP_RESOURCE, server(config.MCP_RESOURCE, MCP_SCOPE)],
  ]);
}

/**
 * The resources an authorization request names (its `resource` parameters, RFC 8707 §2), or the
 * API when it names none (the default resource).
 */
export function requestedResources(config: Pick<AppConfig, 'API_RESOURCE'>, resource: unknown): string[] {
  const named = [resource ?? []].flat().filter((value): value is string => typeof value === 'string');
  return named.length > 0 ? named : [config.API_RESOURCE];
}
