import { describe, expect, it } from '@jest/globals';
import { errors } from 'oidc-provider';
import { assertClientPolicy } from './client-policy.js';

const registered = { client_id: 'rc_abc', redirect_uris: ['https://app.example/cb'] };

describe('assertClientPolicy', () => {
  it('keeps integration clients to client_credentials', () => {
    expect(() =>
      assertClientPolicy({ client_id: 'ic_abc', grant_types: ['client_credentials'] }),
    ).not.toThrow();
    expect(() => assertClientPolicy({ client_id: 'ic_abc', grant_types: ['authorization_code'] })).toThrow(
      errors.InvalidClientMetadata,
    );
  });

  it('keeps every other client to authorization_code and refresh_token', () => {
    expect(() =>
      assertClientPolicy({ ...registered, grant_types: ['authorization_code', 'refresh_token'] }),
    ).not.toThrow();
    expect(() => assertClientPolicy({ ...registered, grant_types: undefined })).not.toThrow();
    for (const grant of ['client_credentials', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code']) {
      expect(() => assertClientPolicy({ ...registered, grant_types: ['authorization_code', grant] })).toThrow(
        errors.InvalidClientMetadata,
      );
    }
  });

  it('allows http redirect URIs on loopback hosts only', () => {
    for (const uri of [
      'http://127.0.0.1:8080/cb',
      'http://[::1]/cb',
      'http://localhost:3000/cb',
      'myapp:/cb',
    ]) {
      expect(() => assertClientPolicy({ ...registered, redirect_uris: [uri] })).not.toThrow();
    }
    const refusal = (() => {
      try {
        assertClientPolicy({ ...registered, redirect_uris: ['http://app.example/cb'] });
      } catch (error) {
        return error;
      }
    })();
    // RFC 7591 §3.2.2: problems with redirect URIs are `invalid_redirect_uri`.
    expect(refusal).toMatchObject({
      error: 'invalid_redirect_uri',
      error_description: expect.stringContaining('https'),
    });
  });

  it('refuses grant_types and redirect_uris that are not arrays of strings, as client metadata errors', () => {
    for (const field of ['grant_types', 'redirect_uris'])
      for (const value of ['', 'authorization_code', [1], {}]) {
        const metadata = { ...registered, [field]: value } as Parameters<typeof assertClientPolicy>[0];
        expect(() => assertClientPolicy(metadata)).toThrow(errors.InvalidClientMetadata);
      }
  });
});
