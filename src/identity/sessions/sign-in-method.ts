/** How the person proved who they are. */
export type SignInMethod = 'email_code' | 'oidc';
