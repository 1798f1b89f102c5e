/**
 * Where the "Sign in with ..." button sends the browser: the API's `/sign-in/oidc`, asked to come
 * back to the console's home page. The API accepts that absolute `return_to` only when the
 * console's origin is one of its CONSOLE_ORIGINS (docs/auth.md), so it never redirects elsewhere.
 */
export function oidcSignInUrl(apiUrl: string, consoleOrigin: string): string {
  const url = new URL('/sign-in/oidc', apiUrl);
  url.searchParams.set('return_to', `${consoleOrigin}/`);
  return url.href;
}
