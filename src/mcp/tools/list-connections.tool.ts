import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { Permission } from '@app/common/permission.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import type { AgentActor } from '@app/identity/auth/mcp-token.strategy.js';
import { readingTool, type McpTool, type ToolArgs } from '@app/mcp/mcp-tool.js';
import { nextCursorField, pageArguments, pageOf } from '@app/mcp/paging.js';
import { countsBy, instant } from './tool-schemas.js';

const input = { ...pageArguments(50) };

const output = {
  total: z.number().int(),
  byProvider: countsBy('provider kind'),
  connections: z.array(
    z.object({
      id: z.string(),
      provider: z.string(),
      org_url: z.string(),
      org_name: z.string().nullable(),
      last_verified_at: instant.nullable(),
    }),
  ),
  nextCursor: nextCursorField,
};

const definition = readingTool({
  name: 'list_connections',
  title: 'List connections',
  description:
    "The team's identity provider connections (Okta, Okta Workflows, Entra ID): id, provider, org. " +
    'Use a connection id with list_backups, resource_timeline, check_compliance or get_scores.',
  permission: Permission.ManageConnections,
  inputSchema: input,
  outputSchema: output,
});

/**
 * The team's connections, as GET /api/connections lists them (permission `manage connections`),
 * without their OAuth client ids: an agent needs the id and the org, never a credential.
 */
@Injectable()
export class ListConnectionsTool implements McpTool<typeof definition> {
  readonly definition = definition;

  constructor(private readonly connections: ConnectionsService) {}

  async run(actor: AgentActor, args: ToolArgs<typeof definition>) {
    const all = await this.connections.list(actor);
    const byProvider: Record<string, number> = {};
    for (const connection of all)
      byProvider[connection.provider] = (byProvider[connection.provider] ?? 0) + 1;
    const page = pageOf(all, args);
    return {
      total: all.length,
      byProvider,
      connections: page.items.map(({ id, provider, org_url, org_name, last_verified_at }) => ({
        id,
        provider,
        org_url,
        org_name,
        last_verified_at,
      })),
      nextCursor: page.nextCursor,
    };
  }
}
