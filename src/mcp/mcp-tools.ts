import type { Type } from '@nestjs/common';
import type { McpTool } from './mcp-tool.js';
import { CheckComplianceTool } from './tools/check-compliance.tool.js';
import { CompareBackupsTool } from './tools/compare-backups.tool.js';
import { GetBackupTool } from './tools/get-backup.tool.js';
import { GetScoresTool } from './tools/get-scores.tool.js';
import { ListBackupsTool } from './tools/list-backups.tool.js';
import { ListConnectionsTool } from './tools/list-connections.tool.js';
import { PreviewRestoreTool } from './tools/preview-restore.tool.js';
import { RequestRestoreTool } from './tools/request-restore.tool.js';
import { ResourceTimelineTool } from './tools/resource-timeline.tool.js';
import { SearchBackupTool } from './tools/search-backup.tool.js';

/**
 * Every tool of the MCP server, in the order `tools/list` shows them. Adding a tool is its file
 * under tools/ (an injectable McpTool) and its line here; its services' modules go into
 * McpModule's imports when they are not there yet.
 */
export const MCP_TOOL_TYPES: ReadonlyArray<Type<McpTool>> = [
  ListConnectionsTool,
  ListBackupsTool,
  GetBackupTool,
  CompareBackupsTool,
  ResourceTimelineTool,
  SearchBackupTool,
  CheckComplianceTool,
  GetScoresTool,
  PreviewRestoreTool,
  RequestRestoreTool,
];

/** Injection token of the tool instances, in MCP_TOOL_TYPES order. */
export const MCP_TOOLS = Symbol('MCP_TOOLS');
