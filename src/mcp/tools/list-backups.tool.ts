import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { BackupsService } from '@app/backups/backups.service.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import type { ListBackupsQuery } from '@app/backups/dto/list-backups.query.js';
import { Permission } from '@app/common/permission.js';
import type { AgentActor } from '@app/identity/auth/mcp-token.strategy.js';
import { readingTool, type McpTool, type ToolArgs } from '@app/mcp/mcp-tool.js';
import { decodeCursor, encodeCursor, nextCursorField, pageArguments } from '@app/mcp/paging.js';
import { connectionRef, instant, uuidArg } from './tool-schemas.js';

const input = {
  connectionId: uuidArg('only backups of this connection').optional(),
  status: z.enum(['running', 'completed', 'failed']).optional(),
  since: z.iso.datetime({ offset: true }).optional().describe('ISO 8601: backups started at or after'),
  until: z.iso.datetime({ offset: true }).optional().describe('ISO 8601: backups started at or before'),
  ...pageArguments(20),
};

/** A backup in a listing: what tells it apart, without storage internals. */
export const backupLine = z.object({
  id: z.string(),
  connection: connectionRef,
  status: z.enum(['running', 'completed', 'failed']),
  kind: z.enum(['full', 'incremental']),
  triggered_by: z.string(),
  started_at: instant,
  completed_at: instant.nullable(),
  records: z.number().int().describe('resources held, all types'),
  size: z.number().int().describe('bytes stored'),
  error_message: z.string().nullable(),
});

/** `backupLine` of a backup as the API returns it. */
export function toBackupLine(backup: BackupDto): z.infer<typeof backupLine> {
  return {
    id: backup.id,
    connection: backup.connection,
    status: backup.status,
    kind: backup.kind,
    triggered_by: backup.triggered_by,
    started_at: backup.started_at,
    completed_at: backup.completed_at,
    records: Object.values(backup.resource_counts).reduce((sum, count) => sum + count, 0),
    size: backup.size,
    error_message: backup.error_message,
  };
}

const output = {
  total: z.number().int().describe('backups matching the filters, across pages'),
  completed: z.number().int(),
  failed: z.number().int(),
  backups: z.array(backupLine).describe('newest first'),
  nextCursor: nextCursorField,
};

const definition = readingTool({
  name: 'list_backups',
  title: 'List backups',
  description:
    "The team's backups, newest first, with totals (completed, failed) across pages; filter by " +
    'connection, status and start time. Use two completed backup ids with compare_backups, or one ' +
    'with get_backup, search_backup or preview_restore.',
  permission: Permission.ViewBackups,
  inputSchema: input,
  outputSchema: output,
});

/** The team's backups, newest first, as GET /api/backup/list answers them (permission `view backups`). */
@Injectable()
export class ListBackupsTool implements McpTool<typeof definition> {
  readonly definition = definition;

  constructor(private readonly backups: BackupsService) {}

  async run(actor: AgentActor, args: ToolArgs<typeof definition>) {
    const offset = decodeCursor(args.cursor);
    const query = {
      connectionId: args.connectionId,
      status: args.status,
      from: args.since === undefined ? undefined : new Date(args.since),
      to: args.until === undefined ? undefined : new Date(args.until),
      limit: args.limit,
      offset,
      includeStats: true,
    } satisfies Partial<ListBackupsQuery>;
    const { backups, total, stats } = await this.backups.list(actor, query as ListBackupsQuery);
    const end = offset + backups.length;
    return {
      total,
      completed: stats?.completedBackups ?? 0,
      failed: stats?.failedBackups ?? 0,
      backups: backups.map(toBackupLine),
      nextCursor: end < total ? encodeCursor(end) : null,
    };
  }
}
