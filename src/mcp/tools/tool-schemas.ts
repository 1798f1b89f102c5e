import { z } from 'zod';
import { SEVERITIES } from '@libs/diff/change-facts.js';

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
