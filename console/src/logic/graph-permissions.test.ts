import { describe, expect, it } from 'vitest';
import { missingGraphPermissions } from './graph-permissions';

describe('missingGraphPermissions', () => {
  it('lists each permission the API names, in its order', () => {
    expect(
      missingGraphPermissions(
        'Connection check failed: The app registration lacks the application permissions Policy.Read.All, User.Read.All (Microsoft Graph, admin consent granted) that a backup needs',
      ),
    ).toEqual(['Policy.Read.All', 'User.Read.All']);
  });

  it('reads a single permission', () => {
    expect(
      missingGraphPermissions(
        'The app registration lacks the application permission Policy.Read.AuthenticationMethod (Microsoft Graph, admin consent granted) that a backup needs',
      ),
    ).toEqual(['Policy.Read.AuthenticationMethod']);
  });

  it('answers none for other errors', () => {
    expect(missingGraphPermissions('Connection check failed: AADSTS7000215: Invalid client secret')).toEqual(
      [],
    );
    expect(missingGraphPermissions(undefined)).toEqual([]);
  });
});
