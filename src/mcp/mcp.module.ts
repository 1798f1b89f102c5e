import { Module } from '@nestjs/common';
import { ApprovalsModule } from '@app/approvals/approvals.module.js';
import { AuditModule } from '@app/audit/audit.module.js';
import { BackupsModule } from '@app/backups/backups.module.js';
import { ComplianceModule } from '@app/compliance/compliance.module.js';
import { ConnectionsModule } from '@app/connections/connections.module.js';
import { DiffModule } from '@app/diff/diff.module.js';
import { AuthModule } from '@app/identity/auth/auth.module.js';
import { RestoreModule } from '@app/restore/restore.module.js';
import { ScoresModule } from '@app/scores/scores.module.js';
import { TimelineModule } from '@app/timeline/timeline.module.js';
import { McpController } from './mcp.controller.js';
import { McpServers } from './mcp-servers.js';
import { MCP_TOOL_TYPES, MCP_TOOLS } from './mcp-tools.js';

/**
 * The MCP server for AI agents (docs/mcp.md): the same backups, diffs, timelines, compliance
 * checks, scores and restore previews as the API, as MCP tools, under the same role permissions;
 * and restore requests, which always wait for a person's approval.
 */
@Module({
  imports: [
    ApprovalsModule,
    AuthModule,
    AuditModule,
    BackupsModule,
    ComplianceModule,
    ConnectionsModule,
    DiffModule,
    RestoreModule,
    ScoresModule,
    TimelineModule,
  ],
  controllers: [McpController],
  providers: [
    ...MCP_TOOL_TYPES,
    { provide: MCP_TOOLS, useFactory: (...tools: unknown[]) => tools, inject: [...MCP_TOOL_TYPES] },
    McpServers,
  ],
})
export class McpModule {}
