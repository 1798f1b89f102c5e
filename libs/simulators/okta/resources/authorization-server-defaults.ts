import type { Json } from '@libs/simulators/okta/store/entry.js';
import type { OrgState } from '@libs/simulators/okta/store/org-state.js';

/** The OpenID Connect scopes Okta gives every new server (`system: true`): name, displayName, description. */
const SYSTEM_SCOPES: ReadonlyArray<readonly [string, string, string]> = [
  ['openid', 'openid', 'Signals that a request is an OpenID request.'],
  [
    'profile',
    'View your profile information.',
    'The exact data varies based on what profile information you have provided, such as: name, time zone, picture, or birthday.',
  ],
  ['email', 'View your email address.', 'This allows the app to view your email address.'],
  [
    'address',
    'View your address.',
    'This allows the app to view your address, such as: street address, city, state, and zip code.',
  ],
  ['phone', 'View your phone number.', 'This allows the app to view your phone number.'],
  [
    'offline_access',
    'Keep you signed in to the app.',
    'This keeps you signed in to the app, even when you are not using it.',
  ],
  [
    'device_sso',
    'Request device secret.',
    'This allows you to single sign on between native client applications on your device.',
  ],
];

/** The standard ID token claims Okta gives every new server, with the scope that releases each. */
const PROFILE_CLAIMS = [
  'name',
  'family_name',
  'given_name',
  'middle_name',
  'nickname',
  'preferred_username',
  'profile',
  'picture',
  'website',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
  'updated_at',
];
const SYSTEM_CLAIMS: ReadonlyArray<readonly [string, string]> = [
  ...PROFILE_CLAIMS.map((name) => [name, 'profile'] as const),
  ['email', 'email'],
  ['email_verified', 'email'],
  ['address', 'address'],
  ['phone_number', 'phone'],
];
/** Of those, the claims always in the ID token. */
const ALWAYS_INCLUDED = ['name', 'preferred_username', 'email'];

/**
 * What Okta makes with a new server (recorded in TestAccDataSourceOktaAuthServerClaim_read and
 * ..Scopes_read): the OpenID Connect scopes and standard claims, all `system: true`, and the
 * access token's `sub` claim. Used by the create route and by the generator alike, so a
 * generated server and a re-created one hold the same Okta-made objects.
 * @param scopeId, claimId new ids (random for the API, the generator's PRNG for seeded orgs)
 */
export function addSystemScopesAndClaims(
  state: OrgState,
  authServerId: string,
  scopeId: () => string,
  claimId: () => string,
): void {
  const scopes = state.authorizationServerScopes.of(authServerId);
  for (const [name, displayName, description] of SYSTEM_SCOPES) {
    const id = scopeId();
    const data = { id, name, displayName, description, system: true, metadataPublish: 'ALL_CLIENTS' };
    scopes.set(id, { data: { ...data, consent: 'IMPLICIT', optional: false, default: false } });
  }
  const claims = state.authorizationServerClaims.of(authServerId);
  const claim = (data: Json) => {
    const id = claimId();
    claims.set(id, { data: { id, ...data, status: 'ACTIVE', system: true } });
  };
  for (const [name, scope] of SYSTEM_CLAIMS) {
    const always = ALWAYS_INCLUDED.includes(name);
    claim({
      name,
      claimType: 'IDENTITY',
      valueType: 'SYSTEM',
      conditions: { scopes: [scope] },
      alwaysIncludeInToken: always,
    });
  }
  claim({
    name: 'sub',
    claimType: 'RESOURCE',
    valueType: 'EXPRESSION',
    value: '(appuser != null) ? appuser.userName : app.clientId',
    conditions: { scopes: [] },
    alwaysIncludeInToken: true,
  });
}
