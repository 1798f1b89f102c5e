import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { Permission } from '@app/common/permission.js';
import type { AgentActor } from '@app/identity/auth/mcp-token.strategy.js';
import { MAX_TIMELINE_BACKUPS } from '@app/timeline/dto/timeline.query.js';
import { TimelineService } from '@app/timeline/timeline.service.js';
import { readingTool, type McpTool, type ToolArgs } from '@app/mcp/mcp-tool.js';
import { nextCursorField, pageArguments, pageOf } from '@app/mcp/paging.js';
import {
  attributedFields,
  attributedOf,
  attributionArgs,
  changedPaths,
  instant,
  uuidArg,
} from './tool-schemas.js';

/** Most operations one event shows; `operationCount` counts them all. */
const MAX_OPERATIONS = 30;
/** Longest value (as JSON) an operation shows; a longer one is replaced by a note of its size. */
const MAX_VALUE_CHARS = 500;

const CHANGES = ['created', 'modified', 'deleted'] as const;

const input = {
  connectionId: uuidArg('the connection whose backups to walk'),
  resourceType: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/)
    .describe('singular snake_case type, e.g. "user", "group", "policy"'),
  resourceId: z
    .string()
    .min(1)
    .max(512)
    .describe("the resource's id as stored (from compare_backups or search_backup)"),
  backups: z
    .number()
    .int()
    .min(1)
    .max(MAX_TIMELINE_BACKUPS)
    .default(20)
    .describe(`how many of the connection's latest completed backups to walk, 1 to ${MAX_TIMELINE_BACKUPS}`),
  ...attributionArgs,
  ...pageArguments(10),
};

const output = {
  total: z.number().int().describe('changes found, across pages'),
  byChange: z.object({ created: z.number().int(), modified: z.number().int(), deleted: z.number().int() }),
  events: z
    .array(
      z.object({
        backupId: z.string().describe('the backup that saw the change'),
        timestamp: instant.describe('when that backup started'),
        change: z.enum(CHANGES),
        ...attributedFields,
        changedFields: z.array(z.string()),
        operationCount: z.number().int(),
        operations: z
          .array(z.object({ op: z.string(), path: z.string(), value: z.unknown().optional() }))
          .describe(`RFC 6902 operations from the previous state, at most ${MAX_OPERATIONS}`),
      }),
    )
    .describe('newest first'),
  nextCursor: nextCursorField,
};

const definition = readingTool({
  name: 'resource_timeline',
  title: "A resource's timeline",
  description:
    'When one resource (a user, group, policy, app...) was created, modified or deleted across ' +
    "the connection's backups, newest first, with who made each change and when (from the " +
    "provider's audit log), the fields it touched and the JSON Patch operations. Narrow with " +
    'actor, since and until. An empty list means no backup walked holds it (or no change passes the filters).',
  permission: Permission.ViewBackups,
  inputSchema: input,
  outputSchema: output,
});

/**
 * One resource's changes across a connection's backups (GET /api/resource-timeline, permission
 * `view backups`), newest first: each backup that saw it created, modified or deleted, who made
 * the change and when (the same attribution as the route, filtered by the same `actor`, `since`
 * and `until`), the fields changed and the RFC 6902 operations (bounded: a model's context is not
 * a log store).
 */
@Injectable()
export class ResourceTimelineTool implements McpTool<typeof definition> {
  readonly definition = definition;

  constructor(private readonly timelines: TimelineService) {}

  async run(actor: AgentActor, args: ToolArgs<typeof definition>) {
    const { events } = await this.timelines.timeline(actor, {
      connectionId: args.connectionId,
      resourceType: args.resourceType,
      resourceId: args.resourceId,
      limit: args.backups,
      actor: args.actor,
      since: args.since,
      until: args.until,
    });
    const newestFirst = [...events].reverse();
    const byChange = { created: 0, modified: 0, deleted: 0 };
    for (const event of events) byChange[event.change] += 1;
    const page = pageOf(newestFirst, args);
    return {
      total: events.length,
      byChange,
      events: page.items.map((event) => ({
        backupId: event.backupId,
        timestamp: event.timestamp,
        change: event.change,
        ...attributedOf(event),
        changedFields: changedPaths(event.diff),
        operationCount: event.diff.length,
        operations: event.diff.slice(0, MAX_OPERATIONS).map((operation) => ({
          op: operation.op,
          path: operation.path,
          ...('value' in operation ? { value: bounded(operation.value) } : {}),
        })),
      })),
      nextCursor: page.nextCursor,
    };
  }
}

/** `value`, or a note of its size when its JSON is longer than MAX_VALUE_CHARS. */
function bounded(value: unknown): unknown {
  const length = JSON.stringify(value)?.length ?? 0;
  return length > MAX_VALUE_CHARS ? `(${length} characters of JSON, not shown)` : value;
}
