import { z } from 'zod';
import { SEVERITIES } from '@libs/diff/change-facts.js';
import type { ChangeAttributed } from '@libs/diff/change-attribution.js';

/** A uuid argument, described for the model. */
export const uuidArg = (what: string) => z.uuid().describe(what);

/** Resource types (singular snake_case, docs/resource-types.md) or categories to narrow to. */
export const resourceTypesArg = z
  .array(z.string().max(64))
  .max(50)
  .optional()
  .describe('resource types (e.g. "user", "group", "policy") or categories; default: all');

/** Counts keyed by a name (a resource type, a provider kind, a status). */
export const countsBy = (what: string) =>
  z.record(z.string(), z.number().int()).describe(`counts by ${what}`);

/** Counts by each severity of docs/severity.md, every severity present. */
export const severityCounts = z
  .object(Object.fromEntries(SEVERITIES.map((severity) => [severity, z.number().int()])))
  .describe('counts by severity');

/** The connection a backup or restore names. */
export const connectionRef = z.object({
  id: z.string(),
  provider: z.string(),
  org_name: z.string().nullable(),
  org_url: z.string(),
});

/** An instant as the API writes it (ISO 8601, UTC). */
export const instant = z.string().describe('ISO 8601, UTC');

/** RFC 6901 paths of the fields a list of JSON Patch operations touches, each once. */
export function changedPaths(operations: ReadonlyArray<{ op: string; path: string }>): string[] {
  return [...new Set(operations.filter((operation) => operation.op !== 'test').map(({ path }) => path))];
}

/**
 * Filters by who made a change and when, as the API's `actor`, `since` and `until`
 * (AttributionFilterDto, docs/diff.md "Who changed it"): a change passes when the provider's
 * audit log names `actor` as having made it in `[since, until]`; one the log holds no record of
 * passes no filter.
 */
export const attributionArgs = {
  actor: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe("only changes this actor made: the provider's id of them (changedBy.id)"),
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('only changes made at or after this instant (ISO 8601)'),
  until: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('only changes made at or before this instant (ISO 8601)'),
};

/**
 * Who made a change and when, from the provider's audit log (ChangeAttributed, docs/diff.md
 * "Who changed it"): the actor's id, name and kind only (never the client's address or user
 * agent, which the API shows its own callers).
 */
export const attributedFields = {
  changedBy: z
    .object({ id: z.string(), displayName: z.string(), type: z.enum(['user', 'app', 'system']) })
    .nullable()
    .describe("the last actor the provider's audit log names for it in the period; null when none"),
  changedAt: instant.nullable().describe('when that actor changed it; null with changedBy'),
  attribution: z
    .enum(['recorded', 'no_record', 'not_available'])
    .describe(
      'recorded: changedBy names who; no_record: the audit log held nothing about it for the period; ' +
        'not_available: the provider has no audit log this service reads, or a backup could not read it',
    ),
  attributionReason: z
    .string()
    .optional()
    .describe('with not_available: why (the permission the connection lacks to read the audit log)'),
};

/** attributedFields of a service's ChangeAttributed, the actor reduced to id, name and kind. */
export function attributedOf(change: ChangeAttributed) {
  const by = change.changedBy;
  return {
    changedBy: by && { id: by.id, displayName: by.displayName, type: by.type },
    changedAt: change.changedAt,
    attribution: change.attribution,
    ...(change.attributionReason === undefined ? {} : { attributionReason: change.attributionReason }),
  };
}
