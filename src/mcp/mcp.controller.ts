import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { Public } from '@app/common/decorators.js';
import { McpAuthGuard } from '@app/identity/auth/mcp-auth.guard.js';
import type { AgentActor } from '@app/identity/auth/mcp-token.strategy.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { McpServers } from './mcp-servers.js';

/**
 * The MCP endpoint, `BASE_URL/mcp` (MCP specification 2025-06-18, "Transports", Streamable
 * HTTP), through the official SDK's transport in its stateless mode: every JSON-RPC message is
 * one POST answered with JSON, no session id, no server-initiated stream, so any replica answers
 * any request. GET (a server-to-client stream) and DELETE (ending a session) are answered 405, as
 * the transport section allows for a server without them.
 *
 * Not a route of the API: the global guard lets it through (`@Public()`) to McpAuthGuard, which
 * accepts only a token for this resource. The SDK refuses an `Origin` other than the service's
 * and the console's (the specification's DNS rebinding guard).
 */
@ApiExcludeController()
@Public()
@UseGuards(McpAuthGuard)
@Controller('mcp')
export class McpController {
  private readonly allowedOrigins: string[];

  constructor(
    private readonly servers: McpServers,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.allowedOrigins = [new URL(config.BASE_URL).origin, ...config.CONSOLE_ORIGINS];
  }

  @Post()
  async message(@Req() req: Request & { actor: AgentActor }, @Res() res: Response): Promise<void> {
    const server = this.servers.serverFor(req.actor);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      enableDnsRebindingProtection: true,
      allowedOrigins: this.allowedOrigins,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  /** A server-to-client stream: not offered (405), as Streamable HTTP allows. */
  @Get()
  @HttpCode(405)
  stream(@Res({ passthrough: true }) res: Response): object {
    return onlyPost(res);
  }

  /** Ending a session: there is none (405). */
  @Delete()
  @HttpCode(405)
  endSession(@Res({ passthrough: true }) res: Response): object {
    return onlyPost(res);
  }
}

/** The 405 of a method other than POST: `Allow: POST` and a JSON-RPC error body. */
function onlyPost(res: Response): object {
  res.setHeader('Allow', 'POST');
  return {
    jsonrpc: '2.0',
    error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; POST each message' },
    id: null,
  };
}
