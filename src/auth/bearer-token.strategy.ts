import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { UnauthorizedError } from '@app/common/errors.js';
import { TeamsService } from '@app/teams/teams.service.js';
import { parseAccountSubject } from './account-subject.js';
import { AccessTokenVerifier } from './access-token.verifier.js';
import type { AuthRequest, AuthStrategy } from './auth-strategy.js';

/** `Bearer <b64token>`, RFC 6750 §2.1; the scheme name is case-insensitive (RFC 9110 §11.1). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * OAuth 2.0 bearer tokens from this service's authorization server, in the Authorization
 * header only (RFC 6750 §2.1): an integration client's own token, or a token a client holds
 * for a person (authorization code grant), who acts with their current role in the token's team. The query (§2.3) and body (§2.2) methods are refused outright,
 * even beside a header: tokens in URLs end up in logs and histories.
 */
@Injectable()
export class BearerTokenStrategy implements AuthStrategy {
  constructor(
    private readonly verifier: AccessTokenVerifier,
    private readonly teams: TeamsService,
  ) {}

  async authenticate(request: AuthRequest): Promise<Actor | undefined> {
    const header = request.headers.authorization;
    if (header !== undefined && /^bearer(\s|$)/i.test(header)) request.hadBearerToken = true;
    if (tokenOutsideHeader(request)) {
      throw new UnauthorizedError(
        'Send the access token in the Authorization header, not in the URL or body',
      );
    }
    if (!request.hadBearerToken) return undefined;

    const token = BEARER.exec(header ?? '')?.[1];
    if (!token) throw new UnauthorizedError('Malformed Authorization header; expected "Bearer <token>"');
    const claims = await this.verifier.verify(token);
    // A client acting for itself (client_credentials: sub = client_id) is an integration
    // client; any other token was issued to a client on behalf of a person in a team.
    if (claims.subject === claims.clientId) {
      const actor = await this.teams.resolveClientActor(claims.clientId);
      if (!actor) throw new UnauthorizedError('The client of this access token was revoked or deleted');
      return actor;
    }
    const account = parseAccountSubject(claims.subject);
    if (!account) throw new UnauthorizedError('The access token is not valid');
    const actor = await this.teams.resolveMemberActor(account.userId, account.teamId);
    if (!actor)
      throw new UnauthorizedError('The user of this access token is no longer a member of its team');
    return actor;
  }
}

/** An `access_token` in the query string or in a parsed body (RFC 6750 §2.2, §2.3). */
function tokenOutsideHeader(request: AuthRequest): boolean {
  const query = request.originalUrl.split('?')[1];
  if (query !== undefined && new URLSearchParams(query).has('access_token')) return true;
  const body = request.body;
  return typeof body === 'object' && body !== null && 'access_token' in body;
}
