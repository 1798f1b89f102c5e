import type { Actor } from '@app/common/actor.js';
import { UnauthorizedError } from '@app/common/errors.js';
import type { TeamsService } from '@app/identity/teams/teams.service.js';
import type { AccessTokenClaims } from './access-token.strategy.js';
import { parseAccountSubject } from './account-subject.js';

/**
 * Who a verified access token acts as (spec "Authentication"): an integration client for itself
 * (`client_credentials`: `sub` = `client_id`), else the person in a team the token was issued
 * for (account-subject.ts), with their current role.
 * @throws UnauthorizedError when the client was revoked or deleted, or the person left the team
 */
export async function tokenActor(teams: TeamsService, claims: AccessTokenClaims): Promise<Actor> {
  if (claims.subject === claims.clientId) {
    const actor = await teams.resolveClientActor(claims.clientId);
    if (!actor) throw new UnauthorizedError('The client of this access token was revoked or deleted');
    return actor;
  }
  const account = parseAccountSubject(claims.subject);
  if (!account) throw new UnauthorizedError('The access token is not valid');
  const actor = await teams.resolveMemberActor(account.userId, account.teamId);
  if (!actor) throw new UnauthorizedError('The user of this access token is no longer a member of its team');
  return actor;
}
