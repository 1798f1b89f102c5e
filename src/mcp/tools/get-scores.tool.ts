import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { Permission } from '@app/common/permission.js';
import type { AgentActor } from '@app/identity/auth/mcp-token.strategy.js';
import { ScoresService } from '@app/scores/scores.service.js';
import { readingTool, type McpTool, type ToolArgs } from '@app/mcp/mcp-tool.js';
import { nextCursorField, pageArguments, pageOf } from '@app/mcp/paging.js';
import { countsBy, instant, uuidArg } from './tool-schemas.js';

const input = {
  connectionId: uuidArg("also this connection's resilience score, factor by factor").optional(),
  ...pageArguments(25),
};

const output = {
  readiness: z.object({
    score: z.number().describe("the team's restore readiness, 0 to 100"),
    connections: z.number().int(),
    perConnection: z.array(
      z.object({
        connectionId: z.string(),
        score: z.number(),
        lastBackupAt: instant.nullable(),
        drift: z
          .object({
            changes: z.number().int(),
            bySeverity: countsBy('severity'),
            checkedAt: instant,
            since: instant,
            error: z.string().optional(),
          })
          .nullable()
          .describe('changes in the live org since the last backup, as last read'),
      }),
    ),
  }),
  resilience: z
    .object({
      connectionId: z.string(),
      score: z.number(),
      factors: z.array(
        z.object({ name: z.string(), weight: z.number(), value: z.number(), notes: z.string() }),
      ),
      recommendations: z.array(z.string()),
    })
    .nullable()
    .describe('null without connectionId'),
  nextCursor: nextCursorField.describe('pages perConnection'),
};

const definition = readingTool({
  name: 'get_scores',
  title: 'Readiness and resilience scores',
  description:
    "The team's restore-readiness score with each connection's score, last backup and drift; with " +
    'connectionId also that connection’s resilience score, its weighted factors and recommendations.',
  permission: Permission.ViewBackups,
  inputSchema: input,
  outputSchema: output,
});

/**
 * The team's restore-readiness score and, for one connection, its resilience score (GET
 * /api/scores/readiness and /resilience, permission `view backups`; weights in docs/scores.md).
 */
@Injectable()
export class GetScoresTool implements McpTool<typeof definition> {
  readonly definition = definition;

  constructor(private readonly scores: ScoresService) {}

  async run(actor: AgentActor, args: ToolArgs<typeof definition>) {
    const resilience =
      args.connectionId === undefined
        ? null
        : { connectionId: args.connectionId, ...(await this.scores.resilience(actor, args.connectionId)) };
    const readiness = await this.scores.readiness(actor);
    const page = pageOf(readiness.perConnection, args);
    return {
      readiness: {
        score: readiness.score,
        connections: readiness.perConnection.length,
        perConnection: page.items,
      },
      resilience,
      nextCursor: page.nextCursor,
    };
  }
}
