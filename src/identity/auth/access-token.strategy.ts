import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { decodeProtectedHeader } from 'jose';
import {
  type JwtFromRequestFunction,
  type SecretOrKeyProvider,
  Strategy as JwtStrategy,
  type VerifiedCallback,
} from 'passport-jwt';
import { UnauthorizedError } from '@app/common/errors.js';
import type { AuthRequest } from './auth-strategy.js';
import { CLOCK_TOLERANCE_SECONDS } from './oidc-configuration.js';
import { SIGNING_ALG, type SigningKeySet } from './signing-keys.service.js';

/** What the API needs from a verified access token. */
export interface AccessTokenClaims {
  /** `client_id`: the OAuth client the token was issued to. */
  clientId: string;
  /**
   * `sub`: equals `clientId` for a `client_credentials` token (the client acts for itself); a
   * person in a team (account-subject.ts) for an authorization code grant's token.
   */
  subject: string;
  /** `scope` (RFC 9068 §2.2.3): space-separated, when the token carries one. */
  scope?: string;
}

/** Which tokens a strategy accepts: RFC 9068 `iss` and the one `aud` (RFC 8707 resource). */
export interface TokenTarget {
  issuer: string;
  audience: string;
}

/** Receives the claims of a token that passed every check, and reports the caller to passport. */
export type AccessTokenCallback = (claims: AccessTokenClaims, done: VerifiedCallback) => void;

/** `Bearer <b64token>`, RFC 6750 §2.1; the scheme name is case-insensitive (RFC 9110 §11.1). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * passport-jwt for the authorization server's OAuth 2.0 bearer tokens, in the Authorization
 * header only (RFC 6750 §2.1). The query (§2.3) and body (§2.2) methods are refused outright,
 * even beside a header: tokens in URLs end up in logs and histories. A token is verified
 * locally against the server's own public keys (no HTTP round trip): signature by the key its
 * `kid` names with our one algorithm (so `alg: none` and HMAC tricks fail), header `typ`
 * `at+jwt` (RFC 9068 §4), `iss` and `aud` exactly the target's (RFC 8707: the API's resource, or the MCP endpoint's),
 * `exp`/`nbf` with a few seconds of clock leeway, `exp`, `iat`, `sub` and `client_id` present.
 *
 * To passport it reports: `fail()` when the request has no bearer token (the next strategy is
 * asked); `fail(challenge)` for a token jsonwebtoken or the key lookup refused (turn it into the
 * answer with {@link accessTokenRefusal}); `error(UnauthorizedError)` for a token in the wrong
 * place, a malformed header or unacceptable claims; otherwise whatever `verify` reports.
 */
export class AccessTokenStrategy extends JwtStrategy {
  /**
   * @param name the passport name of this strategy (see AuthStrategyNames)
   * @param target the issuer and the one audience accepted (the API, or the MCP endpoint)
   */
  constructor(name: string, target: TokenTarget, keys: SigningKeySet, verify: AccessTokenCallback) {
    super(
      {
        jwtFromRequest: headerToken,
        secretOrKeyProvider: accessTokenKeys(keys),
        algorithms: [SIGNING_ALG],
        issuer: target.issuer,
        audience: target.audience,
        jsonWebTokenOptions: { clockTolerance: CLOCK_TOLERANCE_SECONDS },
      },
      (payload: Record<string, unknown>, done: VerifiedCallback) => {
        // jsonwebtoken accepts an `aud` array that merely contains the audience; a token for
        // several audiences could be replayed by any of them, so only the audience alone is accepted.
        const { aud, sub, client_id: clientId, exp, iat, scope } = payload;
        if (
          aud !== target.audience ||
          typeof clientId !== 'string' ||
          typeof sub !== 'string' ||
          typeof exp !== 'number' ||
          typeof iat !== 'number'
        ) {
          done(new UnauthorizedError('The access token is not valid'));
          return;
        }
        verify({ clientId, subject: sub, ...(typeof scope === 'string' ? { scope } : {}) }, done);
      },
    );
    this.name = name;
  }

  override authenticate(request: AuthRequest, options?: object): void {
    const header = request.headers.authorization;
    if (header !== undefined && /^bearer(\s|$)/i.test(header)) request.hadBearerToken = true;
    if (tokenOutsideHeader(request)) {
      this.error(
        new UnauthorizedError('Send the access token in the Authorization header, not in the URL or body'),
      );
    } else if (!request.hadBearerToken) {
      this.fail(401);
    } else if (headerToken(request) === null) {
      this.error(new UnauthorizedError('Malformed Authorization header; expected "Bearer <token>"'));
    } else {
      super.authenticate(request as never, options);
    }
  }
}

/**
 * The 401 for a token passport-jwt refused with `challenge`. jsonwebtoken names an expired token's
 * error `TokenExpiredError` (its README, "Errors & Codes"); every other refusal says only that
 * the token is not valid.
 */
export function accessTokenRefusal(challenge: unknown): UnauthorizedError {
  return challenge instanceof Error && challenge.name === 'TokenExpiredError'
    ? new UnauthorizedError('The access token has expired')
    : new UnauthorizedError('The access token is not valid');
}

const headerToken: JwtFromRequestFunction<AuthRequest> = (request) =>
  BEARER.exec(request.headers.authorization ?? '')?.[1] ?? null;

/** An `access_token` in the query string or in a parsed body (RFC 6750 §2.2, §2.3). */
function tokenOutsideHeader(request: AuthRequest): boolean {
  const query = request.originalUrl.split('?')[1];
  if (query !== undefined && new URLSearchParams(query).has('access_token')) return true;
  const body = request.body;
  return typeof body === 'object' && body !== null && 'access_token' in body;
}

/**
 * passport-jwt's key lookup: the public key (a KeyObject) the token's `kid` names (our tokens always
 * carry one), once its header says it is an access token. RFC 9068 §4: `typ` is `at+jwt` or
 * `application/at+jwt`, compared case-insensitively (RFC 7515 §4.1.9). A `crit` header is
 * refused: we understand no extension (RFC 7515 §4.1.11), and jsonwebtoken does not check it.
 */
function accessTokenKeys(keys: SigningKeySet): SecretOrKeyProvider<AuthRequest> {
  // KeyObjects, made once: given a PEM, jsonwebtoken parses it again for every token it verifies
  // (verify.js: a key that is not a KeyObject goes through createPublicKey), about 6 % of
  // the service's CPU under bench:api's load.
  const publicKeys = new Map(
    keys.publicJwks.map((jwk) => [jwk.kid, createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' })]),
  );
  return (_request, token: string, done) => {
    let header;
    try {
      header = decodeProtectedHeader(token);
    } catch (error) {
      done(error);
      return;
    }
    const typ = header.typ?.toLowerCase().replace(/^application\//, '');
    const key = header.kid === undefined ? undefined : publicKeys.get(header.kid);
    if (typ !== 'at+jwt') done(new Error('not an access token (typ)'));
    else if (header.crit !== undefined) done(new Error('unsupported critical header parameters'));
    else if (key === undefined) done(new Error('no signing key has this kid'));
    // passport-jwt passes the key on to jsonwebtoken untouched; its types name only string | Buffer.
    else done(null, key as unknown as string);
  };
}
