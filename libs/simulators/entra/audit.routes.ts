import type { Route } from '@libs/simulators/kit/http/router.js';

import type { DirectoryAudit, DirectoryAuditLog } from './directory-audit.js';
import { badRequest } from './graph-error.js';
import { type GraphContext, graphRoute } from './graph-route.js';
import { listPage } from './odata-list.js';

/** `activityDateTime <op> <instant>`: the clause of `$filter` the log is read by. */
const CLAUSE = /^activityDateTime (eq|ge|gt|le|lt) (\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:\d{2}))$/;

const COMPARISONS: Readonly<Record<string, (ms: number, at: number) => boolean>> = {
  eq: (ms, at) => ms === at,
  ge: (ms, at) => ms >= at,
  gt: (ms, at) => ms > at,
  le: (ms, at) => ms <= at,
  lt: (ms, at) => ms < at,
};

/**
 * `GET /v1.0/auditLogs/directoryAudits` ("List directoryAudits",
 * https://learn.microsoft.com/graph/api/directoryaudit-list): application permissions
 * "AuditLog.Read.All and Directory.Read.All", no higher privileged one, so Directory.Read.All alone
 * is refused (403) and AuditLog.Read.All is the one checked; the records the log holds newest first,
 * `$top` and `@odata.nextLink` paging, and `$filter` on `activityDateTime` (`eq`, `ge`, `le`, and
 * `gt`/`lt`, clauses joined by `and`), its instants unquoted as Graph's examples write them.
 * @throws GraphError 400 for another `$filter`
 */
export function auditRoutes(graph: GraphContext, log: DirectoryAuditLog): Route[] {
  return [
    graphRoute(graph, 'GET', '/v1.0/auditLogs/directoryAudits', ['AuditLog.Read.All'], ({ url }) => {
      const keep = filterOf(url.searchParams.get('$filter'));
      const records = log.held(keep) as unknown as Array<Record<string, unknown>>;
      return listPage(url, graph.baseUrl, 'auditLogs/directoryAudits', records);
    }),
  ];
}

/** The records a `$filter` keeps. @throws GraphError 400 for a clause not on activityDateTime */
function filterOf(filter: string | null): (audit: DirectoryAudit) => boolean {
  if (filter === null) return () => true;
  const tests = filter.split(/\s+and\s+/i).map((clause) => {
    const match = CLAUSE.exec(clause.trim());
    const at = match ? Date.parse(match[2]) : NaN;
    if (!match || Number.isNaN(at)) throw badRequest(`Invalid filter clause: '${clause.trim()}'.`);
    const compare = COMPARISONS[match[1]];
    return (ms: number): boolean => compare(ms, at);
  });
  return (audit) => {
    const ms = Date.parse(audit.activityDateTime);
    return tests.every((test) => test(ms));
  };
}
