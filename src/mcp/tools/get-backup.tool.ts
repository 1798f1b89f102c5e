import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { BackupsService } from '@app/backups/backups.service.js';
import { Permission } from '@app/common/permission.js';
import type { AgentActor } from '@app/identity/auth/mcp-token.strategy.js';
import { readingTool, type McpTool, type ToolArgs } from '@app/mcp/mcp-tool.js';
import { backupLine, toBackupLine } from './list-backups.tool.js';
import { countsBy, uuidArg } from './tool-schemas.js';

const input = { backupId: uuidArg('the backup') };

const output = {
  backup: backupLine.extend({
    base_backup_id: z.string().nullable().describe('the backup an incremental one started from'),
    resource_counts: countsBy('resource type'),
    progress_pct: z.number(),
    progress_message: z.string(),
    sha256: z.string().nullable().describe('SHA-256 of the manifest as stored'),
  }),
};

const definition = readingTool({
  name: 'get_backup',
  title: 'Inspect a backup',
  description:
    'One backup: its connection, status, progress, kind, when it ran and what started it, and ' +
    'how many resources of each type it holds.',
  permission: Permission.ViewBackups,
  inputSchema: input,
  outputSchema: output,
});

/** One backup with its counts by resource type, as GET /api/backup/:id (permission `view backups`). */
@Injectable()
export class GetBackupTool implements McpTool<typeof definition> {
  readonly definition = definition;

  constructor(private readonly backups: BackupsService) {}

  async run(actor: AgentActor, args: ToolArgs<typeof definition>) {
    const backup = await this.backups.get(actor, args.backupId);
    return {
      backup: {
        ...toBackupLine(backup),
        base_backup_id: backup.base_backup_id,
        resource_counts: backup.resource_counts,
        progress_pct: backup.progress_pct,
        progress_message: backup.progress_message,
        sha256: backup.sha256,
      },
    };
  }
}
