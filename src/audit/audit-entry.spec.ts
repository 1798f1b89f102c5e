import { describe, expect, it } from '@jest/globals';
import { secretKeyIn } from './audit-entry.js';

describe('secretKeyIn', () => {
  it('finds a key naming a secret at any depth, and its path', () => {
    expect(secretKeyIn({ org: 'a', nested: [{ client_secret: 'x' }] })).toBe(
      'details.nested[0].client_secret',
    );
    expect(secretKeyIn({ accessToken: 'x' })).toBe('details.accessToken');
    expect(secretKeyIn({ private_key: 'x' })).toBe('details.private_key');
  });

  it('lets plain facts through, a value naming a field included', () => {
    expect(
      secretKeyIn({ client_id: 'x', changed: ['client_secret'], reason: 'credentials_invalid' }),
    ).toBeUndefined();
    expect(secretKeyIn(undefined)).toBeUndefined();
  });
});
