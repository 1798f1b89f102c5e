import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { SEVERITIES } from '@libs/diff/change-facts.js';
import { Permission } from '@app/common/permission.js';
import { DiffService } from '@app/diff/diff.service.js';
import type { AgentActor } from '@app/identity/auth/mcp-token.strategy.js';
import { readingTool, type McpTool, type ToolArgs } from '@app/mcp/mcp-tool.js';
import { nextCursorField, pageArguments, pageOf } from '@app/mcp/paging.js';
import {
  attributedFields,
  attributedOf,
  attributionArgs,
  changedPaths,
  countsBy,
  resourceTypesArg,
  severityCounts,
  uuidArg,
} from './tool-schemas.js';

/** Most field paths one change lists; the timeline of the resource has them all. */
const MAX_LISTED_PATHS = 20;

const ACTIONS = ['added', 'modified', 'removed'] as const;

const input = {
  fromBackupId: uuidArg('the older backup'),
  toBackupId: uuidArg('the newer backup (another connection’s too: production against preview)'),
  resourceTypes: resourceTypesArg,
  severity: z.enum(SEVERITIES).optional().describe('only changes of this severity'),
  action: z.enum(ACTIONS).optional().describe('only added, modified or removed resources'),
  ...attributionArgs,
  ...pageArguments(25),
};

const side = z.object({
  backupId: z.string(),
  connectionId: z.string(),
  startedAt: z.string(),
  completedAt: z.string().nullable(),
});

const output = {
  summary: z.object({
    from: side,
    to: side,
    sameConnection: z.boolean(),
    total: z.number().int(),
    byAction: z.object({ added: z.number().int(), modified: z.number().int(), removed: z.number().int() }),
    bySeverity: severityCounts,
    byType: z.record(z.string(), countsBy('action')).describe('counts by resource type, then action'),
    resourceTypes: z.array(z.string()).describe('types compared'),
    notCompared: z.array(z.string()).describe('types one of the backups did not capture'),
    recreated: z
      .array(z.object({ resourceType: z.string(), previousId: z.string(), id: z.string() }))
      .optional()
      .describe('objects a restore between the backups re-created under a new id, otherwise unchanged'),
  }),
  matching: z.number().int().describe('changes matching severity and action, across pages'),
  changes: z
    .array(
      z.object({
        resourceType: z.string(),
        action: z.enum(ACTIONS),
        id: z.string(),
        name: z.string().nullable(),
        severity: z.enum(SEVERITIES),
        rule: z.string().describe('the severity rule that decided it (docs/severity.md)'),
        ...attributedFields,
        changedFields: z.array(z.string()).describe(`RFC 6901 paths changed, at most ${MAX_LISTED_PATHS}`),
        previousId: z
          .string()
          .optional()
          .describe('a restore re-created the object under `id`: its id in the older backup'),
      }),
    )
    .describe('most severe first'),
  nextCursor: nextCursorField,
};

const definition = readingTool({
  name: 'compare_backups',
  title: 'Compare two backups',
  description:
    'What changed between two completed backups: counts by action, severity and resource type, ' +
    'then the changes, most severe first (id, name, severity, who made it and when, changed ' +
    'fields). Narrow with resourceTypes, severity, action, or actor, since and until; for one resource’s full change history call ' +
    'resource_timeline with its type and id.',
  permission: Permission.ViewBackups,
  inputSchema: input,
  outputSchema: output,
});

/**
 * What changed between two backups (POST /api/diff, permission `view backups`): the diff's
 * summary, counts by action, severity and type, then a page of changes, most severe first, each
 * with who made it and when (the route's attribution, filtered by the same `actor`, `since` and
 * `until`) and the paths it touched. The full before and after of a resource is one resource_timeline
 * call away.
 */
@Injectable()
export class CompareBackupsTool implements McpTool<typeof definition> {
  readonly definition = definition;

  constructor(private readonly diffs: DiffService) {}

  async run(actor: AgentActor, args: ToolArgs<typeof definition>) {
    const { changes, summary } = await this.diffs.diff(actor, {
      fromBackupId: args.fromBackupId,
      toBackupId: args.toBackupId,
      resourceTypes: args.resourceTypes,
      actor: args.actor,
      since: args.since,
      until: args.until,
    });
    const matching = changes
      .filter((change) => args.severity === undefined || change.severity === args.severity)
      .filter((change) => args.action === undefined || change.action === args.action)
      .sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
    const page = pageOf(matching, args);
    return {
      summary,
      matching: matching.length,
      changes: page.items.map((change) => ({
        resourceType: change.resourceType,
        action: change.action,
        id: change.resource.id,
        name: change.resource.name,
        severity: change.severity,
        rule: change.rule,
        ...(change.recreated ? { previousId: change.recreated.previousId } : {}),
        ...attributedOf(change),
        changedFields: changedPaths(change.resource.changes ?? []).slice(0, MAX_LISTED_PATHS),
      })),
      nextCursor: page.nextCursor,
    };
  }
}
