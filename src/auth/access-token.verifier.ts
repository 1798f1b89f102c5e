import { Inject, Injectable } from '@nestjs/common';
import { createLocalJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { UnauthorizedError } from '@app/common/errors.js';
import type { AppConfig } from '@app/config/app-config.js';
import { APP_CONFIG } from '@app/config/config.module.js';
import { CLOCK_TOLERANCE_SECONDS } from './oidc-configuration.js';
import { SIGNING_ALG, SIGNING_KEYS, type SigningKeySet } from './signing-keys.service.js';

/** What the API needs from a verified access token. */
export interface AccessTokenClaims {
  /** `client_id`: the OAuth client the token was issued to. */
  clientId: string;
  /**
   * `sub`: equals `clientId` for a `client_credentials` token (the client acts for itself); a
   * person in a team (account-subject.ts) for an authorization code grant's token.
   */
  subject: string;
}

/**
 * Verifies the authorization server's JWT access tokens (RFC 9068 §4) locally, against the
 * server's own public keys (no HTTP round trip): signature by one of our keys with our one
 * algorithm (so `alg: none` and HMAC tricks fail), header `typ: at+jwt`, `iss` = BASE_URL,
 * `aud` exactly the API resource (RFC 8707), `exp`/`nbf` with a few seconds of clock leeway.
 */
@Injectable()
export class AccessTokenVerifier {
  private readonly keySet: JWTVerifyGetKey;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SIGNING_KEYS) keys: SigningKeySet,
  ) {
    this.keySet = createLocalJWKSet({ keys: keys.publicJwks });
  }

  /** @throws UnauthorizedError (401) for any token that fails a check; other errors are bugs and propagate. */
  async verify(token: string): Promise<AccessTokenClaims> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.keySet, {
        algorithms: [SIGNING_ALG],
        typ: 'at+jwt',
        issuer: this.config.BASE_URL,
        audience: this.config.API_RESOURCE,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'iat', 'sub', 'client_id'],
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new UnauthorizedError('The access token has expired');
      if (error instanceof errors.JOSEError) throw new UnauthorizedError('The access token is not valid');
      throw error;
    }
    // jose accepts an `aud` array that merely contains the API; a token for several audiences
    // could be replayed by any of them, so only the API alone is accepted.
    if (
      payload.aud !== this.config.API_RESOURCE ||
      typeof payload.client_id !== 'string' ||
      typeof payload.sub !== 'string'
    ) {
      throw new UnauthorizedError('The access token is not valid');
    }
    return { clientId: payload.client_id, subject: payload.sub };
  }
}
