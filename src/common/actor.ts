import type { Role } from './permission.js';

/**
 * Who is calling, resolved by the auth guard from a token (or, later, a session cookie).
 * Services receive it as their first argument and scope every query by `teamId`.
 * `userId` is the person behind the call: the user, or for an integration client the
 * user who created it (snapshot keys are isolated per user, DESIGN section 5).
 */
export interface Actor {
  teamId: string;
  userId: string;
  role: Role;
  /** Set when an integration client (client_credentials) is calling. */
  clientId?: string;
  /**
   * When the team is to be deleted (docs/account.md), read with the actor's role so that the
   * `X-Account-Deletion` header costs no query of its own; null when no deletion is pending.
   */
  teamDeletionAt?: Date | null;
  /**
   * Set when the call runs a request a second member approved (docs/approvals.md): the approval
   * gate lets it through instead of holding it again.
   */
  approvalId?: string;
  /** Where an HTTP call came from, set by the auth guard; recorded in the audit trail. */
  origin?: RequestOrigin;
}

/** The client address (as rate limits see it, TRUST_PROXY_HOPS) and request id of an HTTP call. */
export interface RequestOrigin {
  ip: string;
  requestId: string;
}
