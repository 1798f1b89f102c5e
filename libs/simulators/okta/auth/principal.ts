/** An OAuth client calling through one of its access tokens, with the token's scopes. */
export interface Principal {
  clientId: string;
  scopes: ReadonlySet<string>;
}

/** Scopes that let a Bearer token read a family (`okta.users` -> read or manage). */
export function readScopes(family: string): readonly string[] {
  return [`${family}.read`, `${family}.manage`];
}

/** Scopes that let a Bearer token write a family (`okta.users` -> manage only). */
export function manageScopes(family: string): readonly string[] {
  return [`${family}.manage`];
}
