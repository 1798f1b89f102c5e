/** The sign-in screen's text (docs/auth.md: an e-mail code, or the API's identity provider). */
export const signInMessages = {
  title: 'Sign in to idp-backup',
  email: 'E-mail address',
  code: 'Code',
  codeSent: (email: string) => `We sent a six-digit code to ${email}. It is valid for 10 minutes.`,
  sendCode: 'Send code',
  signIn: 'Sign in',
  anotherAddress: 'Use another address',
  or: 'or',
  signInWith: (provider: string) => `Sign in with ${provider}`,
} as const;
