import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { searchRecords } from '@app/backups/backup-search.js';
import { BackupSnapshotsService } from '@app/backups/backup-snapshots.service.js';
import { Permission } from '@app/common/permission.js';
import type { AgentActor } from '@app/identity/auth/mcp-token.strategy.js';
import { readingTool, type McpTool, type ToolArgs } from '@app/mcp/mcp-tool.js';
import { nextCursorField, pageArguments, pageOf } from '@app/mcp/paging.js';
import { countsBy, uuidArg } from './tool-schemas.js';

/** Most matches listed across pages; all are counted. */
const MAX_LISTED_MATCHES = 1000;

const input = {
  backupId: uuidArg('a completed backup'),
  query: z.string().min(1).max(200).describe('part of the name (case-insensitive), or the exact id'),
  resourceTypes: z
    .array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/))
    .max(50)
    .optional()
    .describe('only these types (e.g. ["user", "group"]); default: every type the backup holds'),
  ...pageArguments(25),
};

const output = {
  total: z.number().int().describe('every match, across pages'),
  byType: countsBy('resource type'),
  matches: z.array(z.object({ resourceType: z.string(), id: z.string(), name: z.string().nullable() })),
  nextCursor: nextCursorField,
};

const definition = readingTool({
  name: 'search_backup',
  title: 'Search a backup',
  description:
    'Finds users, groups, apps, policies... in a completed backup whose name contains the query ' +
    `(or whose id is the query): counts by type, then type, id and name (at most ${MAX_LISTED_MATCHES} ` +
    'listed). Use an id with resource_timeline or preview_restore.',
  permission: Permission.ViewBackups,
  inputSchema: input,
  outputSchema: output,
});

/**
 * Finds objects in a backup by name or id (permission `view backups`, as reading the backup
 * through the API): type, id and name only, the record's data never (its history is one
 * resource_timeline call away).
 */
@Injectable()
export class SearchBackupTool implements McpTool<typeof definition> {
  readonly definition = definition;

  constructor(private readonly snapshots: BackupSnapshotsService) {}

  async run(actor: AgentActor, args: ToolArgs<typeof definition>) {
    const { reader } = await this.snapshots.open(actor.teamId, args.backupId);
    const found = await searchRecords(reader, args.query, args.resourceTypes, MAX_LISTED_MATCHES);
    const page = pageOf(found.matches, args);
    return { total: found.total, byType: found.byType, matches: page.items, nextCursor: page.nextCursor };
  }
}
