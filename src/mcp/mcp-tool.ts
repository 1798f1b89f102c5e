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
 * One MCP tool: what `tools/list` shows (name, title, description, JSON Schemas of its input and
 * of its `structuredContent`, annotations) and what a call runs. A role without `permission`
 * neither sees nor calls it, as the REST route with the same permission refuses it
 * (`RequirePermission`, ROLE_PERMISSIONS). `run` calls the same services as that route, with the
 * agent as the actor (team scoping, plan limits, redaction as for the API), and throws the
 * services' errors, which the server turns into tool errors (`isError: true`).
 */
export interface McpTool<
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
  run(actor: AgentActor, args: z.infer<z.ZodObject<In>>): Promise<z.infer<z.ZodObject<Out>>>;
}
