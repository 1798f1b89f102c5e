import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import type { InteractionDetails } from 'oidc-provider';
import { ApiError } from '@app/common/errors.js';
import { SessionsService } from '@app/identity/sessions/sessions.service.js';
import type { SafeHtml } from '@app/identity/sign-in/html.js';
import { CodeBudgetSpentError, NoTeamError } from '@app/identity/sign-in/sign-in.errors.js';
import { SignInService } from '@app/identity/sign-in/sign-in.service.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { formatAccountSubject } from '@app/identity/auth/account-subject.js';
import { AuthorizationServer } from '@app/identity/auth/authorization-server.js';
import { readForm } from './form-body.js';
import { codePage, consentPage, expiredPage, signInPage } from './interaction-pages.js';

/** What an interaction route answers: a page, or a redirect (303). Both may set cookies. */
export type InteractionOutcome =
  | { kind: 'page'; status: number; title: string; body: SafeHtml; setCookies?: string[] }
  | { kind: 'redirect'; location: string; setCookies?: string[] };

type Exchange = { req: IncomingMessage; res: ServerResponse };

/**
 * The pages of an authorization request (authorization code flow): the person signs in to this
 * service (e-mail code, or the identity provider), which gives them a session, then consents
 * once per client. Every step first finds the request's interaction by its `_interaction`
 * cookie (10 minutes) and refuses one that is unknown, expired or not the one in the URL.
 */
@Injectable()
export class InteractionService {
  constructor(
    private readonly server: AuthorizationServer,
    private readonly signIn: SignInService,
    private readonly sessions: SessionsService,
    private readonly teams: TeamsService,
  ) {}

  /** GET: completes the login step when the request already has a session, else shows the page of the pending step. */
  async show(uid: string, { req, res }: Exchange): Promise<InteractionOutcome> {
    const details = await this.details(uid, req, res);
    if (!details) return expired();
    const account = await this.sessionAccount(req);
    if (details.prompt.name === 'login') {
      if (account) {
        return redirect(
          await this.server.finishInteraction(req, res, { login: { accountId: account.subject } }),
        );
      }
      return this.signInOutcome(details, 200);
    }
    if (details.prompt.name === 'consent' && account && account.subject === details.session?.accountId) {
      const client = await this.server.findClient(String(details.params.client_id));
      const clientId = String(details.params.client_id);
      const body = consentPage(uid, {
        clientName: client?.clientName ?? clientId,
        clientId,
        redirectHost: new URL(String(details.params.redirect_uri)).host,
        role: account.role,
      });
      return { kind: 'page', status: 200, title: 'Allow access?', body };
    }
    return expired();
  }

  /** POST send-code: e-mails a code to the address of the form, then asks for it. */
  async sendCode(uid: string, { req, res }: Exchange): Promise<InteractionOutcome> {
    const details = await this.details(uid, req, res);
    if (!details) return expired();
    const email = (await readForm(req)).get('email')?.trim() ?? '';
    if (email.length > 254 || !isEmail(email))
      return this.signInOutcome(details, 400, 'Enter a valid e-mail address.');
    let retryAfter: number;
    try {
      retryAfter = await this.signIn.sendCode(email);
    } catch (error) {
      if (error instanceof ApiError) return this.signInOutcome(details, error.getStatus(), error.message);
      throw error;
    }
    if (retryAfter > 0) return this.signInOutcome(details, 429, new CodeBudgetSpentError(retryAfter).message);
    return { kind: 'page', status: 200, title: 'Check your e-mail', body: codePage({ uid, email }) };
  }

  /** POST verify-code: signs in with the code (a new session cookie), then back to the interaction. */
  async verifyCode(uid: string, { req, res }: Exchange): Promise<InteractionOutcome> {
    const details = await this.details(uid, req, res);
    if (!details) return expired();
    const form = await readForm(req);
    const email = form.get('email')?.trim() ?? '';
    const code = form.get('code')?.trim() ?? '';
    const retry = (status: number, error: string): InteractionOutcome => ({
      kind: 'page',
      status,
      title: 'Check your e-mail',
      body: codePage({ uid, email, error }),
    });
    if (email.length > 254 || !isEmail(email))
      return this.signInOutcome(details, 400, 'Enter a valid e-mail address.');
    if (!/^\d{6}$/.test(code)) return retry(400, 'The code is six digits.');
    try {
      const result = await this.signIn.verifyCode(email, code, req.headers.cookie);
      return redirect(`/interaction/${uid}`, result.setCookies);
    } catch (error) {
      if (error instanceof NoTeamError) return this.signInOutcome(details, error.getStatus(), error.message);
      if (error instanceof ApiError) return retry(error.getStatus(), error.message);
      throw error;
    }
  }

  /** POST consent: `decision=allow` grants the client the API for the signed-in account; anything else denies. */
  async consent(uid: string, { req, res }: Exchange): Promise<InteractionOutcome> {
    const details = await this.details(uid, req, res);
    const account = await this.sessionAccount(req);
    if (
      !details ||
      details.prompt.name !== 'consent' ||
      !account ||
      account.subject !== details.session?.accountId
    ) {
      return expired();
    }
    if ((await readForm(req)).get('decision') !== 'allow') return this.deny(req, res);
    const grantId = await this.server.grantApiAccess(details, account.subject);
    return redirect(await this.server.finishInteraction(req, res, { consent: { grantId } }));
  }

  /** POST abort: the person cancelled; the client gets `access_denied`. */
  async abort(uid: string, { req, res }: Exchange): Promise<InteractionOutcome> {
    return (await this.details(uid, req, res)) ? this.deny(req, res) : expired();
  }

  private async deny(req: IncomingMessage, res: ServerResponse): Promise<InteractionOutcome> {
    const location = await this.server.finishInteraction(req, res, {
      error: 'access_denied',
      error_description: 'The person declined to grant access',
    });
    return redirect(location);
  }

  private async details(
    uid: string,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<InteractionDetails | null> {
    const details = await this.server.interactionDetails(req, res);
    return details?.uid === uid ? details : null;
  }

  /** The request's signed-in account and its current role, if its session is live and still a member. */
  private async sessionAccount(req: IncomingMessage): Promise<{ subject: string; role: string } | undefined> {
    const identity = await this.sessions.resolve(req.headers.cookie);
    const actor = identity && (await this.teams.resolveMemberActor(identity.userId, identity.teamId));
    return actor ? { subject: formatAccountSubject(actor), role: actor.role } : undefined;
  }

  private async signInOutcome(
    details: InteractionDetails,
    status: number,
    error?: string,
  ): Promise<InteractionOutcome> {
    const clientId = String(details.params.client_id);
    const client = await this.server.findClient(clientId);
    const { enabled, label } = this.signIn.upstreamProvider;
    const body = signInPage({
      uid: details.uid,
      clientName: client?.clientName ?? clientId,
      upstream: enabled ? { label } : undefined,
      error,
    });
    return { kind: 'page', status, title: 'Sign in', body };
  }
}

function redirect(location: string, setCookies?: string[]): InteractionOutcome {
  return { kind: 'redirect', location, setCookies };
}

function expired(): InteractionOutcome {
  return { kind: 'page', status: 400, title: 'Sign-in expired', body: expiredPage() };
}
