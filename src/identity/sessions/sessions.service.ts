import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { clearHostCookie, hostCookie, readCookie } from './host-cookie.js';
import type { SignInMethod } from './sign-in-method.js';
import { SessionsRepository } from './sessions.repository.js';

/** Name of the session cookie (a `__Host-` cookie, see host-cookie.ts). */
export const SESSION_COOKIE = '__Host-session';

/** Who a live session belongs to. */
export interface SessionIdentity {
  userId: string;
  teamId: string;
}

/**
 * Browser sessions of signed-in people (spec "Authentication" item 6, docs/auth.md): the cookie holds
 * 32 random bytes; the database holds their SHA-256 only (a random 256-bit value needs no slow
 * hash). A session ends after SESSION_IDLE_TIMEOUT seconds without a request or
 * SESSION_ABSOLUTE_TIMEOUT seconds after sign-in, whichever comes first, and at sign-out.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Starts a session and returns the `Set-Cookie` value that carries it. The session the
   * request already had (if any) is ended first, so a sign-in always gets a new id (no session
   * fixation, OWASP Session Management Cheat Sheet "Renew the Session ID After Any Privilege Level Change").
   * @param cookieHeader the request's `Cookie` header.
   */
  async start(
    identity: SessionIdentity,
    method: SignInMethod,
    cookieHeader: string | undefined,
  ): Promise<string> {
    await this.end(cookieHeader);
    const id = randomBytes(32).toString('base64url');
    await this.sessions.insert({
      idHash: hashSessionId(id),
      ...identity,
      method,
      lifetimeSeconds: this.config.SESSION_ABSOLUTE_TIMEOUT,
    });
    return hostCookie(SESSION_COOKIE, id, this.config.SESSION_ABSOLUTE_TIMEOUT);
  }

  /**
   * The identity of the request's session cookie, recording the activity.
   * @returns undefined when the request carries no session cookie; null when it carries one that
   *   is unknown, forged or past a timeout.
   */
  async resolve(cookieHeader: string | undefined): Promise<SessionIdentity | null | undefined> {
    const id = readCookie(cookieHeader, SESSION_COOKIE);
    if (id === undefined) return undefined;
    return this.sessions.findLiveAndTouch(hashSessionId(id), this.config.SESSION_IDLE_TIMEOUT);
  }

  /**
   * Binds the request's session to another team of the same person (switching teams without
   * signing in again); the caller has checked the membership. The session keeps its id and its
   * timeouts: the person and how they proved who they are do not change, and a new id would
   * restart the absolute timeout, which switching must not extend.
   * @param cookieHeader the request's `Cookie` header.
   * @returns false when the request carries no live session.
   */
  async rebindTeam(cookieHeader: string | undefined, teamId: string): Promise<boolean> {
    const id = readCookie(cookieHeader, SESSION_COOKIE);
    return id !== undefined && this.sessions.setTeam(hashSessionId(id), teamId);
  }

  /**
   * Ends the request's session, if any, and returns the `Set-Cookie` value that deletes the cookie.
   * @param cookieHeader the request's `Cookie` header.
   */
  async end(cookieHeader: string | undefined): Promise<string> {
    const id = readCookie(cookieHeader, SESSION_COOKIE);
    if (id) await this.sessions.delete(hashSessionId(id));
    return clearHostCookie(SESSION_COOKIE);
  }

  /** Deletes sessions past a timeout; reads ignore them already. @returns rows removed. */
  purgeExpired(): Promise<number> {
    return this.sessions.deleteExpired(this.config.SESSION_IDLE_TIMEOUT);
  }
}

function hashSessionId(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('base64url');
}
