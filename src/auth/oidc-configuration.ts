import { type Adapter, type Configuration, errors, type ResourceServerInfo } from 'oidc-provider';
import type { AppConfig } from '../config/app-config.js';
import { API_SCOPE } from './protected-resource.js';
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

/**
 * oidc-provider's configuration for this service: the `client_credentials` grant for
 * integration clients (secret in the Authorization header or the form body), and JWT access
 * tokens (RFC 9068, signed ES256 with our keys) for exactly one resource, the API
 * (`config.API_RESOURCE`, RFC 8707): it is the default when `resource` is absent and any
 * other value is `invalid_target`.
 *
 * Only ES256 is enabled anywhere a signature algorithm is chosen. Besides matching the keys,
 * this keeps HS* out: HMAC would be keyed by the client secret, which is stored only hashed.
 */
export function buildOidcConfiguration(options: {
  config: AppConfig;
  keys: SigningKeySet;
  adapter: (model: string) => Adapter;
}): Configuration {
  const { config, keys, adapter } = options;
  const apiServer: ResourceServerInfo = {
    scope: API_SCOPE,
    audience: config.API_RESOURCE,
    accessTokenTTL: config.ACCESS_TOKEN_TTL,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: SIGNING_ALG } },
  };
  return {
    adapter,
    jwks: { keys: keys.privateJwks },
    routes: ROUTES,
    scopes: [API_SCOPE],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    clientDefaults: {
      grant_types: ['client_credentials'],
      response_types: [],
      id_token_signed_response_alg: SIGNING_ALG,
      token_endpoint_auth_method: 'client_secret_basic',
    },
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    responseTypes: ['code'],
    enabledJWA: Object.fromEntries(SIGNING_ALG_SETTINGS.map((setting) => [setting, [SIGNING_ALG]])),
    ttl: { ClientCredentials: config.ACCESS_TOKEN_TTL, AccessToken: config.ACCESS_TOKEN_TTL },
    // No end-user accounts sign in through this server yet; only clients act for themselves.
    findAccount: async () => undefined,
    features: {
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => config.API_RESOURCE,
        getResourceServerInfo: async (_ctx: unknown, resourceIndicator: string) => {
          if (resourceIndicator !== config.API_RESOURCE) throw new errors.InvalidTarget();
          return apiServer;
        },
      },
      // Off until they are designed in: interactive sign-in, user-facing endpoints, and
      // sender-constrained tokens the API cannot verify (a DPoP-bound token must not work as a
      // plain bearer token).
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      introspection: { enabled: false },
      dPoP: { enabled: false },
    },
  };
}
