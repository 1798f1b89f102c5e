import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { SEVERITIES, type Finding, type FindingStatus } from '@libs/compliance/compliance-types.js';
import { FRAMEWORK_IDS } from '@libs/compliance/frameworks/framework-types.js';
import { Permission } from '@app/common/permission.js';
import { ComplianceService } from '@app/compliance/compliance.service.js';
import { ValidationError } from '@app/common/errors.js';
import type { AgentActor } from '@app/identity/auth/mcp-token.strategy.js';
import { readingTool, type McpTool, type ToolArgs } from '@app/mcp/mcp-tool.js';
import { nextCursorField, pageArguments, pageOf } from '@app/mcp/paging.js';
import { countsBy, instant, severityCounts, uuidArg } from './tool-schemas.js';

const STATUSES = ['fail', 'warning', 'manual', 'pass', 'not_applicable'] as const satisfies FindingStatus[];
/** Most evidence resources one detail lists; `total` counts them all. */
const MAX_EVIDENCE_LISTED = 20;

const input = {
  connectionId: uuidArg('the connection to check'),
  framework: z.enum(FRAMEWORK_IDS),
  backupId: uuidArg('a completed backup of the connection; default its latest').optional(),
  status: z.enum(STATUSES).optional().describe('only findings with this status'),
  check: z
    .string()
    .max(200)
    .optional()
    .describe(
      'a check id from the findings (e.g. "okta.password.min_length"): answers its full evidence in `detail`',
    ),
  ...pageArguments(25),
};

const findingLine = z.object({
  control: z.string(),
  check: z.string(),
  title: z.string(),
  status: z.enum(STATUSES),
  severity: z.enum(SEVERITIES),
  remediation: z.string(),
});

const output = {
  score: z.number().describe('0 to 100'),
  framework: z.string(),
  framework_version: z.string(),
  backupId: z.string(),
  connectionId: z.string(),
  generatedAt: instant,
  byStatus: countsBy('status'),
  failedBySeverity: severityCounts,
  findings: z.array(findingLine).describe('failures first, most severe first'),
  detail: findingLine
    .extend({
      requirement: z.string(),
      evidence: z.object({
        backupId: z.string(),
        collectedAt: instant,
        resourceType: z.string(),
        total: z.number().int(),
        resources: z.array(
          z.object({ id: z.string(), name: z.string().nullable(), observed: z.unknown().optional() }),
        ),
        pointers: z.array(z.string()),
        observed: z.unknown(),
        expected: z.unknown(),
        note: z.string().optional(),
      }),
    })
    .nullable()
    .describe('the finding `check` named, with its evidence; null without `check`'),
  nextCursor: nextCursorField,
};

const definition = readingTool({
  name: 'check_compliance',
  title: 'Compliance check',
  description:
    `Checks a connection's latest (or a named) backup against a framework (${FRAMEWORK_IDS.join(', ')}): ` +
    'score, counts by status, failures by severity, then findings (failures first). Pass `check` ' +
    'with a finding’s check id for its evidence: the resources and values it read.',
  permission: Permission.Compliance,
  inputSchema: input,
  outputSchema: output,
});

/**
 * A compliance check of a connection's backup against a framework (POST /api/compliance/check,
 * permission `compliance`, the plan's framework limit included): the score and counts first,
 * then a page of findings without evidence; one finding's evidence when `check` names it.
 */
@Injectable()
export class CheckComplianceTool implements McpTool<typeof definition> {
  readonly definition = definition;

  constructor(private readonly compliance: ComplianceService) {}

  async run(actor: AgentActor, args: ToolArgs<typeof definition>) {
    const report = await this.compliance.check(actor, {
      connectionId: args.connectionId,
      framework: args.framework,
      backupId: args.backupId,
    });
    const byStatus: Record<string, number> = {};
    const failedBySeverity = Object.fromEntries(SEVERITIES.map((severity) => [severity, 0]));
    for (const finding of report.findings) {
      byStatus[finding.status] = (byStatus[finding.status] ?? 0) + 1;
      if (finding.status === 'fail') failedBySeverity[finding.severity] += 1;
    }
    const ordered = report.findings
      .filter((finding) => args.status === undefined || finding.status === args.status)
      .sort(
        (a, b) =>
          STATUSES.indexOf(a.status) - STATUSES.indexOf(b.status) ||
          SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity),
      );
    const page = pageOf(ordered, args);
    return {
      score: report.score,
      framework: report.framework,
      framework_version: report.framework_version,
      backupId: report.backupId,
      connectionId: report.connectionId,
      generatedAt: report.generatedAt,
      byStatus,
      failedBySeverity,
      findings: page.items.map(line),
      detail: args.check === undefined ? null : detailOf(report.findings, args.check),
      nextCursor: page.nextCursor,
    };
  }
}

function line(finding: Finding) {
  const { control, check, title, status, severity, remediation } = finding;
  return { control, check, title, status, severity, remediation };
}

/** @throws ValidationError when no finding has this check id */
function detailOf(findings: readonly Finding[], check: string) {
  const finding = findings.find((candidate) => candidate.check === check);
  if (!finding) throw new ValidationError(`No finding of this report has the check "${check}"`);
  const { evidence } = finding;
  return {
    ...line(finding),
    requirement: finding.requirement,
    evidence: { ...evidence, resources: evidence.resources.slice(0, MAX_EVIDENCE_LISTED) },
  };
}
