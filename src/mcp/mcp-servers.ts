import { Inject, Injectable } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { NotFoundError, ValidationError } from '@app/common/errors.js';
import { roleHasPermission } from '@app/common/permission.js';
import type { AgentActor } from '@app/identity/auth/mcp-token.strategy.js';
import { SERVICE_VERSION } from '@app/platform/config/version.js';
import type { McpTool } from './mcp-tool.js';
import { MCP_TOOLS } from './mcp-tools.js';
import { toolErrorMessage } from './tool-error.js';

/** Most items of an array argument the audit trail keeps (a selective preview names up to 1,000 ids). */
const AUDITED_ITEMS = 20;

/** What the server tells a client about itself at `initialize`. */
const INSTRUCTIONS =
  'Backups, diffs, timelines, compliance checks, scores and restore previews of identity provider ' +
  'configuration (Okta, Okta Workflows, Microsoft Entra ID). Listing tools answer a summary with ' +
  'counts first and a page of items; pass nextCursor as cursor for the next page. Start with ' +
  'list_backups (or list_connections), then compare_backups, resource_timeline or search_backup. ' +
  'request_restore never runs a restore: it asks, and a person of the team approves.';

/**
 * Builds the MCP server (the official SDK's McpServer) that answers one agent's request: the
 * tools its role allows and no other (a viewer's agent neither lists nor calls a tool needing a
 * permission the viewer lacks, as the REST routes refuse it). Stateless: each HTTP request gets
 * its own server, so any replica answers any request (DESIGN section 1).
 *
 * Every `tools/call` is recorded in the audit trail as `mcp.tool_called` on target `mcp_tool`
 * (its name), by the token's actor, with the OAuth client's id and name, the arguments and the
 * outcome; a failure is answered as a tool error (`isError: true`, never a protocol error), its
 * message from toolErrorMessage.
 */
@Injectable()
export class McpServers {
  constructor(
    @Inject(MCP_TOOLS) private readonly tools: readonly McpTool[],
    private readonly audit: AuditService,
  ) {}

  /** The tools `actor`'s role allows, in MCP_TOOL_TYPES order. */
  toolsFor(actor: AgentActor): McpTool[] {
    return this.tools.filter((tool) => roleHasPermission(actor.role, tool.definition.permission));
  }

  /**
   * A server holding the tools of toolsFor(actor), each running as `actor`. The SDK lists them
   * (JSON Schemas from the zod shapes, annotations); `tools/call` is answered by `call`, so that a
   * call refused before its tool runs (a tool the role does not list, arguments its schema
   * refuses) is audited too.
   */
  serverFor(actor: AgentActor): McpServer {
    const server = new McpServer(
      { name: 'idp-backup', title: 'Identity provider backup', version: SERVICE_VERSION },
      { instructions: INSTRUCTIONS },
    );
    const tools = this.toolsFor(actor);
    for (const { definition } of tools) {
      const { name, title, description, inputSchema, outputSchema, annotations } = definition;
      server.registerTool(
        name,
        { title, description, inputSchema, outputSchema, annotations: { title, ...annotations } },
        (args: Record<string, unknown>) => this.call(tools, actor, name, args),
      );
    }
    server.server.setRequestHandler(CallToolRequestSchema, (request) =>
      this.call(tools, actor, request.params.name, request.params.arguments ?? {}),
    );
    return server;
  }

  /**
   * Runs one call: finds the tool among `tools`, parses the arguments with its input schema,
   * runs it, and keeps of its answer what the output schema names (an allowlist: a field a
   * service adds later does not reach agents unreviewed). Records the call in the audit trail,
   * whatever its outcome.
   */
  private async call(
    tools: readonly McpTool[],
    actor: AgentActor,
    name: string,
    input: Record<string, unknown>,
  ): Promise<CallToolResult> {
    const tool = tools.find((candidate) => candidate.definition.name === name);
    const parsed = tool && z.object(tool.definition.inputSchema).safeParse(input);
    let result: CallToolResult;
    let error: string | undefined;
    try {
      if (!tool || !parsed) throw new NotFoundError(`Tool ${name}`);
      if (!parsed.success) throw invalidArguments(name, parsed.error);
      const structured = z.object(tool.definition.outputSchema).parse(await tool.run(actor, parsed.data));
      result = {
        content: [{ type: 'text', text: JSON.stringify(structured) }],
        structuredContent: structured,
      };
    } catch (thrown) {
      error = toolErrorMessage(thrown, name, actor.origin?.requestId);
      result = { content: [{ type: 'text', text: error }], isError: true };
    }
    await this.audit.recordAlone({
      ...byCaller(actor),
      action: 'mcp.tool_called',
      target: { type: 'mcp_tool', id: name.slice(0, MAX_AUDITED_NAME) },
      outcome: error === undefined ? 'success' : 'failure',
      details: {
        client_id: actor.agent.clientId,
        client_name: actor.agent.clientName,
        // Arguments a schema refused are not known to be plain ids and filters: only their names.
        ...(parsed?.success
          ? { arguments: auditedArguments(parsed.data) }
          : { argument_names: Object.keys(input).slice(0, AUDITED_ITEMS) }),
        ...(error === undefined ? {} : { error }),
      },
    });
    return result;
  }
}

/** Longest tool name the audit trail keeps of a call to a tool that does not exist. */
const MAX_AUDITED_NAME = 100;

/** The tool error for arguments the tool's input schema refused: each field and why. */
function invalidArguments(tool: string, error: z.ZodError): ValidationError {
  return new ValidationError(
    `Invalid arguments for tool ${tool}`,
    error.issues.map((issue) => ({ field: issue.path.join('.') || '(arguments)', message: issue.message })),
  );
}

/**
 * A call's arguments as the audit trail keeps them: as given, but an array argument longer than
 * AUDITED_ITEMS keeps its first items and a note of how many more there were, so one call cannot
 * make a large audit row. Arguments hold ids, names, filters and cursors, never a secret (the
 * tools' input schemas, which strip any other key).
 */
function auditedArguments(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) =>
      Array.isArray(value) && value.length > AUDITED_ITEMS
        ? [key, [...value.slice(0, AUDITED_ITEMS), `(${value.length - AUDITED_ITEMS} more)`]]
        : [key, value],
    ),
  );
}
