import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { clearHostCookie } from '@app/identity/sessions/host-cookie.js';
import type { SignInMethod } from '@app/identity/sessions/sign-in-method.js';
import { SessionsService } from '@app/identity/sessions/sessions.service.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import type { SignedInDto } from './dto/signed-in.dto.js';
import { EmailCodesService } from './email-codes.service.js';
import { returnTarget } from './return-target.js';
import { FLOW_COOKIE } from './oidc-flow-cookie.js';
import { InvalidCodeError, NoTeamError } from './sign-in.errors.js';
import { UpstreamOidcService } from './upstream-oidc.service.js';

/** A completed sign-in: who, and the `Set-Cookie` values to send. */
export interface SignInResult {
  signedIn: SignedInDto;
  setCookies: string[];
}

/**
 * Sign-in without passwords (spec "Authentication" item 7, docs/auth.md): a person proves control of
 * an e-mail address, by a one-time code or through the customer's identity provider, and
 * TeamsService decides who that address is (an invitation joins its team at first sign-in; an
 * unknown address is refused unless self-service teams are on). The answer is a new session.
 */
@Injectable()
export class SignInService {
  constructor(
    private readonly codes: EmailCodesService,
    private readonly upstream: UpstreamOidcService,
    private readonly sessions: SessionsService,
    private readonly teams: TeamsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** True when sign-in through an identity provider is configured; `label` names it. */
  get upstreamProvider(): { enabled: boolean; label: string } {
    return { enabled: this.upstream.enabled, label: this.upstream.label };
  }

  /**
   * @returns 0 when a code was sent; else the seconds until the address's budget allows one.
   * @see EmailCodesService.send (503 when mail fails).
   */
  sendCode(email: string): Promise<number> {
    return this.codes.send(email);
  }

  /**
   * Signs in with an e-mail code.
   * @param cookieHeader the request's `Cookie` header (a session it carries is replaced).
   * @throws InvalidCodeError (401) for a wrong, expired, used or voided code; NoTeamError (403).
   */
  async verifyCode(email: string, code: string, cookieHeader: string | undefined): Promise<SignInResult> {
    if (!(await this.codes.verify(email, code))) throw new InvalidCodeError();
    return this.complete(email, 'email_code', cookieHeader);
  }

  /**
   * Starts a sign-in through the identity provider.
   * @param returnTo where to come back to: a local path or a URL on an allowed console origin;
   *   anything else becomes `/` (`returnTarget`).
   * @see UpstreamOidcService.start
   */
  startUpstream(returnTo: unknown): Promise<{ location: string; setCookie: string }> {
    return this.upstream.start(returnTarget(returnTo, this.config));
  }

  /**
   * Completes a sign-in through the identity provider; the flow cookie is deleted.
   * @see UpstreamOidcService.finish (400); NoTeamError (403).
   */
  async finishUpstream(
    callbackUrl: string,
    cookieHeader: string | undefined,
  ): Promise<SignInResult & { returnTo: string }> {
    const identity = await this.upstream.finish(callbackUrl, cookieHeader);
    const result = await this.complete(identity.email, 'oidc', cookieHeader);
    return {
      ...result,
      setCookies: [...result.setCookies, clearHostCookie(FLOW_COOKIE)],
      returnTo: identity.returnTo,
    };
  }

  /** Ends the request's session. @returns the `Set-Cookie` value that deletes the cookie. */
  signOut(cookieHeader: string | undefined): Promise<string> {
    return this.sessions.end(cookieHeader);
  }

  private async complete(
    email: string,
    method: SignInMethod,
    cookieHeader: string | undefined,
  ): Promise<SignInResult> {
    const membership = await this.teams.resolveSignIn(email);
    if (!membership) throw new NoTeamError();
    const setCookie = await this.sessions.start(membership, method, cookieHeader);
    return {
      signedIn: { user_id: membership.userId, team_id: membership.teamId, role: membership.role },
      setCookies: [setCookie],
    };
  }
}
