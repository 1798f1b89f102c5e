import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { SEVERITIES } from '@libs/diff/change-facts.js';
import { MAX_RESTORE_IDS } from '@app/restore/dto/run-restore.dto.js';
import { Permission } from '@app/common/permission.js';
import type { AgentActor } from '@app/identity/auth/mcp-token.strategy.js';
import { RestoreService } from '@app/restore/restore.service.js';
import type { RestorePreview } from '@app/restore/restore-results.js';
import { defineTool, type McpTool, type ToolArgs } from '@app/mcp/mcp-tool.js';
import { nextCursorField, pageArguments, pageOf } from '@app/mcp/paging.js';
import { instant, resourceTypesArg, uuidArg } from './tool-schemas.js';

const input = {
  backupId: uuidArg('the completed backup to restore from'),
  resourceTypes: resourceTypesArg,
  resourceIds: z
    .array(z.string().min(1).max(512))
    .max(MAX_RESTORE_IDS)
    .optional()
    .describe('only these record ids (a selective restore), e.g. from search_backup'),
  ...pageArguments(25),
};

const counts = {
  create: z.number().int().describe('in the backup, not in the live org: would be created'),
  update: z.number().int().describe('different in the live org: would be changed back'),
  skip: z.number().int().describe('identical: left alone'),
  pruneCandidates: z.number().int().describe('in the live org only: deleted only by a restore with prune'),
};

const output = {
  sourceOrgUrl: z.string(),
  collectedAt: instant.describe('when the live org was read'),
  totals: z.object(counts),
  byType: z.array(z.object({ resourceType: z.string(), ...counts })),
  notRestorable: z.array(z.object({ resourceType: z.string(), items: z.array(z.string()), why: z.string() })),
  pruneCandidates: z
    .array(
      z.object({
        resourceType: z.string(),
        id: z.string(),
        name: z.string().nullable(),
        severity: z.enum(SEVERITIES),
      }),
    )
    .describe('a page of them'),
  nextCursor: nextCursorField.describe('pages pruneCandidates'),
};

const definition = defineTool({
  name: 'preview_restore',
  title: 'Preview a restore',
  description:
    'Dry run of restoring a backup into its live org: how many objects of each type would be ' +
    'created, changed back or left alone, what cannot be restored, and the objects only the live ' +
    'org holds. Writes nothing. Narrow with resourceTypes or resourceIds.',
  permission: Permission.Restore,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  inputSchema: input,
  outputSchema: output,
});

/**
 * The dry run of a restore (GET /api/restore, permission `restore`): reads the live org and
 * compares it with the backup, writes nothing. Totals and per-type counts first, then a page of
 * the objects only the live org holds. Read-only, but not closed-world: it reads the provider.
 */
@Injectable()
export class PreviewRestoreTool implements McpTool<typeof definition> {
  readonly definition = definition;

  constructor(private readonly restores: RestoreService) {}

  async run(actor: AgentActor, args: ToolArgs<typeof definition>) {
    // Answered at once (no Prefer: respond-async), as the API answers a caller who did not ask to poll.
    const preview = (await this.restores.preview(actor, {
      backupId: args.backupId,
      resourceTypes: args.resourceTypes,
      resourceIds: args.resourceIds,
    })) as RestorePreview;
    const byType = preview.preview.map(({ resourceType, create, update, skip, pruneCandidates }) => ({
      resourceType,
      create,
      update,
      skip,
      pruneCandidates,
    }));
    const totals = { create: 0, update: 0, skip: 0, pruneCandidates: 0 };
    for (const row of byType) {
      for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += row[key];
    }
    const page = pageOf(preview.prune, args);
    return {
      sourceOrgUrl: preview.sourceOrgUrl,
      collectedAt: preview.collectedAt,
      totals,
      byType,
      notRestorable: preview.notRestorable,
      pruneCandidates: page.items.map(({ resourceType, id, name, severity }) => ({
        resourceType,
        id,
        name,
        severity,
      })),
      nextCursor: page.nextCursor,
    };
  }
}
