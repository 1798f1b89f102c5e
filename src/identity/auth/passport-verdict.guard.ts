import { AuthGuard as PassportAuthGuard } from '@nestjs/passport';
import { UnauthorizedError } from '@app/common/errors.js';
import { accessTokenRefusal } from './access-token.strategy.js';

/**
 * A passport guard with the service's verdict: a strategy's error (401 or 403) as it is; else
 * the actor; else a 401 saying why the bearer token was refused, when one was (the only strategy
 * that fails with a challenge, accessTokenRefusal), or the generic one. The API's guard and the
 * MCP endpoint's extend it.
 */
export class PassportVerdictGuard extends PassportAuthGuard() {
  /** @throws the strategy's error, or UnauthorizedError */
  override handleRequest<TActor>(error: unknown, actor: TActor | false | null, challenges: unknown): TActor {
    if (error) throw error;
    if (actor) return actor;
    const refused = [challenges].flat().find((challenge) => challenge instanceof Error);
    throw refused ? accessTokenRefusal(refused) : new UnauthorizedError();
  }
}
