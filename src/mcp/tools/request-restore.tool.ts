import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { ApprovalsService } from '@app/approvals/approvals.service.js';
import { Permission } from '@app/common/permission.js';
import type { AgentActor } from '@app/identity/auth/mcp-token.strategy.js';
import { MAX_RESTORE_IDS } from '@app/restore/dto/run-restore.dto.js';
import { defineTool, type McpTool, type ToolArgs } from '@app/mcp/mcp-tool.js';
import { attributionArgs, countsBy, instant, resourceTypesArg, uuidArg } from './tool-schemas.js';

const MODES = ['full', 'selective', 'undo'] as const;

const input = {
  backupId: uuidArg('the completed backup to restore from (for undo: the clean backup)'),
  mode: z
    .enum(MODES)
    .describe(
      'full: every type the backup holds; selective: resourceTypes (and resourceIds); undo: reverse ' +
        'the changes made since the backup (those of actor, in since..until, when given)',
    ),
  resourceTypes: resourceTypesArg.describe('required with selective: resource types or categories'),
  resourceIds: z
    .array(z.string().min(1).max(512))
    .max(MAX_RESTORE_IDS)
    .optional()
    .describe('only these record ids, e.g. from search_backup or compare_backups'),
  ...attributionArgs,
};

const output = {
  approvalId: z.string().describe('the pending request; a person approves or rejects it by this id'),
  status: z.string().describe('pending: nothing runs until a person approves'),
  expiresAt: instant.describe('a request nobody approved by then expires and never runs'),
  summary: z.string().describe('what would run, as approvers see it'),
  preview: z
    .object({
      sourceOrgUrl: z.string(),
      collectedAt: instant.describe('when the live org was read'),
      totals: countsBy('action').describe(
        'restore: create, update, skip, pruneCandidates; undo: delete, put_back, recreate',
      ),
      byType: z.record(z.string(), countsBy('action')).describe('the same counts by resource type'),
    })
    .describe('the dry run the approvers see, as counts'),
};

const definition = defineTool({
  name: 'request_restore',
  title: 'Request a restore (a person approves it)',
  description:
    'Asks for a restore of a backup into its live org, or an undo of the changes made since it. ' +
    'It never runs by itself: it creates a request that another member of the team with the ' +
    'restore permission (not the person this agent acts for) must approve in the console or the ' +
    'API; until then nothing changes. Answers the pending request and the dry run as counts. Call ' +
    'preview_restore first to see what it would do.',
  permission: Permission.Restore,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  inputSchema: input,
  outputSchema: output,
});

/** The counts of a restore's dry run row (GET /api/restore) an approver decides on. */
const RESTORE_COUNTS = ['create', 'update', 'skip', 'pruneCandidates'] as const;

/** A dry run as RestoreService.dryRunOf answers it: a restore's (rows by type) or an undo's. */
interface DryRunShape {
  sourceOrgUrl?: unknown;
  collectedAt?: unknown;
  preview?: Array<Partial<Record<(typeof RESTORE_COUNTS)[number], number>> & { resourceType: string }>;
  /** an undo's totals by action, counting every change (`changes` lists at most 1,000) */
  totals?: Record<string, number>;
  changes?: Array<{ resourceType: string; action: string }>;
}

/**
 * Requests a restore (POST /api/restore with `mode`, permission `restore`) that always waits for
 * a person's approval (docs/approvals.md, docs/mcp.md): whatever the team's two-person setting
 * says, the request is held (`requireApproval: true`), recorded with the agent's client name, and
 * the agent gets the pending request back. The requester is the person the agent acts for, who
 * cannot approve their own request; an approval runs it as that person.
 */
@Injectable()
export class RequestRestoreTool implements McpTool<typeof definition> {
  readonly definition = definition;

  constructor(private readonly approvals: ApprovalsService) {}

  async run(actor: AgentActor, args: ToolArgs<typeof definition>) {
    const held = await this.approvals.requestRestore(actor, actor.teamId, args, {
      requireApproval: true,
      clientName: actor.agent.clientName,
    });
    // requireApproval holds every request; a started restore here would be a broken gate.
    if (!('approval' in held)) throw new Error('An agent’s restore request was not held for approval');
    const { approval } = held;
    return {
      approvalId: approval.id,
      status: approval.status,
      expiresAt: approval.expires_at,
      summary: approval.what.summary,
      preview: previewCounts((approval.preview ?? {}) as DryRunShape),
    };
  }
}

/**
 * A dry run as counts: a restore's rows summed by action (create, update, skip, pruneCandidates),
 * an undo's changes counted by action (delete, put_back, recreate; the totals from the undo's own,
 * which count changes beyond the 1,000 it lists); each also by resource type.
 */
function previewCounts(dryRun: DryRunShape) {
  const totals: Record<string, number> = {};
  const byType: Record<string, Record<string, number>> = {};
  const add = (type: string, action: string, count: number) => {
    totals[action] = (totals[action] ?? 0) + count;
    byType[type] = { ...byType[type], [action]: (byType[type]?.[action] ?? 0) + count };
  };
  for (const row of dryRun.preview ?? [])
    for (const action of RESTORE_COUNTS) add(row.resourceType, action, row[action] ?? 0);
  for (const change of dryRun.changes ?? []) add(change.resourceType, change.action, 1);
  return {
    sourceOrgUrl: String(dryRun.sourceOrgUrl ?? ''),
    collectedAt: String(dryRun.collectedAt ?? ''),
    totals: dryRun.changes ? { ...dryRun.totals } : totals,
    byType,
  };
}
