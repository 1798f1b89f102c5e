import type { z } from 'zod';
import type { Permission } from '@app/common/permission.js';
import type { AgentActor } from '@app/identity/auth/mcp-token.strategy.js';

/**
 * The behaviour hints of a tool (MCP specification 2025-06-18, "Tools", `ToolAnnotations`):
 * clients show them and may ask before calling a tool that is not read-only. Hints, not a
 * guarantee: what a role may do is decided by `permission`.
 */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** true when the tool reads beyond this service (the live identity provider) */
  openWorldHint: boolean;
}

/** The hints of a tool that only reads what this service stored. */
export const READS_BACKUPS: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * What `tools/list` shows of a tool: name, title, description, the zod shapes of its arguments
 * and of its `structuredContent` (listed as JSON Schemas), its annotations, and the permission a
 * role needs to see and call it: the permission of the REST route it mirrors
 * (`RequirePermission`, ROLE_PERMISSIONS).
 */
export interface ToolDefinition<
  In extends z.ZodRawShape = z.ZodRawShape,
  Out extends z.ZodRawShape = z.ZodRawShape,
> {
  name: string;
  title: string;
  description: string;
  permission: Permission;
  annotations: ToolHints;
  inputSchema: In;
  outputSchema: Out;
}

/** The arguments a tool's `run` receives: its input, parsed, defaults applied. */
export type ToolArgs<D extends ToolDefinition> = z.infer<z.ZodObject<D['inputSchema']>>;

/** A tool's structured answer, valid against its output schema. */
export type ToolAnswer<D extends ToolDefinition> = z.infer<z.ZodObject<D['outputSchema']>>;

/** A tool's definition, as written (types kept for ToolArgs and ToolAnswer). */
export function defineTool<In extends z.ZodRawShape, Out extends z.ZodRawShape>(
  definition: ToolDefinition<In, Out>,
): ToolDefinition<In, Out> {
  return definition;
}

/** The definition of a tool that only reads what this service stored (READS_BACKUPS). */
export function readingTool<In extends z.ZodRawShape, Out extends z.ZodRawShape>(
  definition: Omit<ToolDefinition<In, Out>, 'annotations'>,
): ToolDefinition<In, Out> {
  return { ...definition, annotations: READS_BACKUPS };
}

/**
 * One MCP tool: its definition and what a call runs. A role without the definition's
 * permission neither sees nor calls it, as the REST route with the same permission refuses it.
 * `run` calls the same services as that route, with the agent as the actor (team scoping, plan
 * limits, redaction as for the API), and throws the services' errors, which the server turns
 * into tool errors (`isError: true`). A tool is an injectable class (its services injected) with
 * a file of its own under tools/, listed in MCP_TOOL_TYPES.
 */
export interface McpTool<D extends ToolDefinition = ToolDefinition> {
  readonly definition: D;
  run(actor: AgentActor, args: ToolArgs<D>): Promise<ToolAnswer<D>>;
}
