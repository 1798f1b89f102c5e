import { Inject, Injectable, Logger } from '@nestjs/common';
import type * as oidc from 'openid-client';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { hostCookie, readCookie } from '@app/identity/sessions/host-cookie.js';
import { authCaCertificates } from './auth-ca.js';
import { FLOW_COOKIE, FLOW_TTL_SECONDS, openFlow, sealFlow } from './oidc-flow-cookie.js';
import { createOutboundFetch } from './outbound-fetch.js';
import { SignInFailedError } from './sign-in.errors.js';
import { SIGN_IN_KEYS, type SignInKeys } from './sign-in-keys.js';

/** Path of the redirect URI to register at the identity provider: BASE_URL + this. */
export const OIDC_CALLBACK_PATH = '/sign-in/oidc/callback';

/** A verified identity from the identity provider. */
export interface UpstreamIdentity {
  email: string;
  /** The local path the sign-in started from. */
  returnTo: string;
}

/**
 * Sign-in through the customer's own OpenID Connect provider (spec "Authentication" item 7:
 * Okta, Entra ID; SIGN_IN_OIDC_*), with `openid-client` and discovery: authorization code flow
 * with state, nonce and PKCE S256 (OpenID Connect Core §3.1, RFC 7636), the three kept in a
 * signed `__Host-` cookie for at most 10 minutes. The person is the ID token's (or userinfo's)
 * `email`, refused when the provider marks it unverified. `openid-client` is loaded at the first
 * sign-in through the provider, not at boot (most installs never configure one).
 */
@Injectable()
export class UpstreamOidcService {
  private readonly logger = new Logger(UpstreamOidcService.name);
  private discovered?: Promise<oidc.Configuration>;
  private readonly redirectUri: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SIGN_IN_KEYS) private readonly keys: SignInKeys,
  ) {
    this.redirectUri = `${config.BASE_URL}${OIDC_CALLBACK_PATH}`;
  }

  /** True when SIGN_IN_OIDC_ISSUER (and its client) is configured. */
  get enabled(): boolean {
    return Boolean(this.config.SIGN_IN_OIDC_ISSUER);
  }

  /** The identity provider's name on the sign-in button. */
  get label(): string {
    return this.config.SIGN_IN_OIDC_NAME;
  }

  /**
   * Where to send the browser, and the flow cookie to set.
   * @param returnTo a local path or an allowed console URL (checked by the caller).
   * @throws SignInFailedError (400) when sign-in through a provider is not configured or discovery fails.
   */
  async start(returnTo: string): Promise<{ location: string; setCookie: string }> {
    const configuration = await this.configuration();
    const oidc = await openidClient();
    const flow = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
      returnTo,
    };
    const location = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: 'openid email',
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
      code_challenge_method: 'S256',
    });
    const value = sealFlow(this.keys.flowCookie, flow, nowSeconds());
    return { location: location.href, setCookie: hostCookie(FLOW_COOKIE, value, FLOW_TTL_SECONDS) };
  }

  /**
   * Completes the sign-in from the provider's redirect back.
   * @param callbackUrl the callback request's URL (path and query) as received.
   * @param cookieHeader the request's `Cookie` header, which must carry the flow cookie.
   * @throws SignInFailedError (400) for a missing, altered or expired flow cookie, a provider
   *   error, a failed check (state, nonce, PKCE, ID token) or no verified e-mail address.
   */
  async finish(callbackUrl: string, cookieHeader: string | undefined): Promise<UpstreamIdentity> {
    const flow = openFlow(this.keys.flowCookie, readCookie(cookieHeader, FLOW_COOKIE), nowSeconds());
    if (!flow) {
      throw new SignInFailedError(
        'This sign-in was started more than 10 minutes ago or in another browser; please start again',
      );
    }
    const configuration = await this.configuration();
    const oidc = await openidClient();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(configuration, new URL(callbackUrl, this.config.BASE_URL), {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      const reason =
        error instanceof oidc.AuthorizationResponseError ? error.error : (error as Error).message;
      this.logger.warn(`Identity provider sign-in refused: ${reason}`);
      throw new SignInFailedError(`The identity provider sign-in did not complete (${reason})`);
    }
    // idTokenExpected: an answer without a (valid) ID token was refused above.
    const claims = tokens.claims() as oidc.IDToken;
    let email = claims.email;
    let verified = claims.email_verified;
    if (typeof email !== 'string') {
      ({ email, email_verified: verified } = await oidc.fetchUserInfo(
        configuration,
        tokens.access_token,
        claims.sub,
      ));
    }
    if (typeof email !== 'string' || verified === false) {
      throw new SignInFailedError('The identity provider did not give a verified e-mail address');
    }
    return { email, returnTo: flow.returnTo };
  }

  /** Discovery once per process; a failure is not cached, so the next sign-in tries again. */
  private configuration(): Promise<oidc.Configuration> {
    const { SIGN_IN_OIDC_ISSUER: issuer, SIGN_IN_OIDC_CLIENT_ID: clientId } = this.config;
    if (!issuer || !clientId) {
      return Promise.reject(new SignInFailedError('Sign-in through an identity provider is not configured'));
    }
    this.discovered ??= openidClient()
      .then((oidc) =>
        oidc.discovery(new URL(issuer), clientId, this.config.SIGN_IN_OIDC_CLIENT_SECRET, undefined, {
          [oidc.customFetch]: createOutboundFetch({ ca: authCaCertificates(this.config) }),
        }),
      )
      .catch((error: Error) => {
        this.discovered = undefined;
        this.logger.error(`Discovery of ${issuer} failed: ${error.message}`);
        throw new SignInFailedError('The identity provider cannot be reached; try again later');
      });
    return this.discovered;
  }
}

function openidClient(): Promise<typeof oidc> {
  return import('openid-client');
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
