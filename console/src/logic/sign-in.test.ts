import { describe, expect, it } from 'vitest';
import { oidcSignInUrl } from './sign-in';

describe('oidcSignInUrl', () => {
  it("starts the API's sign-in through the identity provider, back to the console's home", () => {
    expect(oidcSignInUrl('http://localhost:3000', 'http://localhost:5173')).toBe(
      'http://localhost:3000/sign-in/oidc?return_to=http%3A%2F%2Flocalhost%3A5173%2F',
    );
  });

  it('keeps the API origin whatever path its base URL has', () => {
    expect(oidcSignInUrl('https://backup.example.com/', 'https://console.example.com')).toBe(
      'https://backup.example.com/sign-in/oidc?return_to=https%3A%2F%2Fconsole.example.com%2F',
    );
  });
});
