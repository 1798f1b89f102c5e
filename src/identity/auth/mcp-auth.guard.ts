import { type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { PassportVerdictGuard } from './passport-verdict.guard.js';
import { AUTH_STRATEGY_NAMES, type AuthRequest, type AuthStrategyNames } from './auth-strategy.js';
import type { AgentActor } from './mcp-token.strategy.js';
import { withOrigin } from './request-origin.js';

/**
 * The MCP endpoint's guard: the caller must bring a bearer token for the MCP endpoint
 * (McpTokenStrategy); no session cookie, no API token. Without one: 401 whose
 * `WWW-Authenticate: Bearer resource_metadata=...` names the endpoint's own RFC 9728 metadata
 * (HttpExceptionFilter, resourceMetadataUrlOf), where an MCP client starts its sign-in (MCP
 * specification, "Authorization Server Discovery"). On success `request.actor` is the
 * {@link AgentActor} with the request's origin. What the role allows is decided per tool.
 */
@Injectable()
export class McpAuthGuard extends PassportVerdictGuard {
  constructor(
    @Inject(AUTH_STRATEGY_NAMES) names: AuthStrategyNames,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super({ defaultStrategy: names.mcpToken, property: 'actor', session: false });
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    const request = context.switchToHttp().getRequest<AuthRequest>();
    request.actor = withOrigin(context, request.actor as AgentActor, this.config);
    return true;
  }
}
