import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import passport from 'passport';
import type { Actor } from '@app/common/actor.js';
import { MCP_SCOPE } from '@app/common/api-scope.js';
import { UnauthorizedError } from '@app/common/errors.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { type AccessTokenClaims, AccessTokenStrategy } from './access-token.strategy.js';
import { AUTH_STRATEGY_NAMES, type AuthStrategyNames } from './auth-strategy.js';
import { AuthorizationServer } from './authorization-server.js';
import { SIGNING_KEYS, type SigningKeySet } from './signing-keys.service.js';
import { tokenActor } from './token-actor.js';

/** The OAuth client an agent signed in with, as the audit trail names it. */
export interface AgentClient {
  clientId: string;
  /** its registered `client_name` (RFC 7591 §2, or its metadata document's), else its id */
  clientName: string;
}

/** A caller of the MCP endpoint: the actor its token acts as, and the client it uses. */
export interface AgentActor extends Actor {
  agent: AgentClient;
}

/**
 * The MCP endpoint's way in (MCP specification 2025-06-18, "Authorization", "Token Handling"):
 * a bearer token of this service's authorization server issued for the MCP endpoint itself
 * (`aud` = `MCP_RESOURCE`, RFC 8707) with the `mcp` scope. An API token (`aud` the API) is
 * refused here, as an MCP token is refused by the API's BearerTokenStrategy: a token is never
 * passed through to another resource. The token acts as tokenActor says, with the current role.
 */
@Injectable()
export class McpTokenStrategy extends PassportStrategy(AccessTokenStrategy) implements OnModuleDestroy {
  constructor(
    @Inject(AUTH_STRATEGY_NAMES) names: AuthStrategyNames,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(SIGNING_KEYS) keys: SigningKeySet,
    private readonly teams: TeamsService,
    private readonly server: AuthorizationServer,
  ) {
    super(names.mcpToken, { issuer: config.BASE_URL, audience: config.MCP_RESOURCE }, keys);
  }

  /** @throws UnauthorizedError without the `mcp` scope, or as tokenActor */
  async validate(claims: AccessTokenClaims): Promise<AgentActor> {
    if (!(claims.scope ?? '').split(' ').includes(MCP_SCOPE)) {
      throw new UnauthorizedError(`The access token lacks the "${MCP_SCOPE}" scope`);
    }
    const actor = await tokenActor(this.teams, claims);
    return {
      ...actor,
      agent: { clientId: claims.clientId, clientName: await this.clientName(claims.clientId) },
    };
  }

  /**
   * The client's registered name, else its id: a metadata-document client whose cached document
   * expired is fetched again, and a fetch that fails must not refuse a valid token.
   */
  private async clientName(clientId: string): Promise<string> {
    try {
      return (await this.server.findClient(clientId))?.clientName ?? clientId;
    } catch {
      return clientId;
    }
  }

  onModuleDestroy(): void {
    passport.unuse(this.name);
  }
}
