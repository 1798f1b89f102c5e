import type { GraphApiClient, GraphObject } from './graph-api-client.js';

/** "List directoryAudits" (https://learn.microsoft.com/graph/api/directoryaudit-list). */
export const DIRECTORY_AUDITS_TEMPLATE = '/v1.0/auditLogs/directoryAudits';

/**
 * The application permission that reads the directory audit ("List directoryAudits": least
 * privileged AuditLog.Read.All): asked for with the backup's, for drift since a backup.
 */
export const AUDIT_LOG_PERMISSION = 'AuditLog.Read.All';

/**
 * Days Entra keeps directory audit records ("Microsoft Entra data retention",
 * https://learn.microsoft.com/entra/identity/monitoring-health/reference-reports-data-retention):
 * 7 without a premium licence, 30 with Microsoft Entra ID P1 or P2.
 */
export const AUDIT_RETENTION_DAYS = { free: 7, premium: 30 } as const;

/** An assigned plan's statuses under which the plan works ("assignedPlan resource type": Warning is its grace period). */
const ACTIVE_PLAN = new Set(['Enabled', 'Warning']);

/**
 * The directory audit records (Graph's `directoryAudit` objects, as Graph answers them) whose
 * `activityDateTime` is at or after `since` (ISO 8601, UTC), page by page through
 * `@odata.nextLink`, in Graph's order (newest first), each request paced by the connector's
 * resource-unit governor like every other Graph read.
 * @throws as GraphApiClient.pages: ProviderAuthError on 403 (AuditLog.Read.All not granted)
 */
export async function* directoryAudits(
  graph: GraphApiClient,
  since: string,
  signal?: AbortSignal,
): AsyncGenerator<GraphObject> {
  const read = {
    template: DIRECTORY_AUDITS_TEMPLATE,
    query: { $filter: `activityDateTime ge ${since}` },
    paged: true,
    signal,
  };
  for await (const page of graph.pages(read)) yield* page;
}

/**
 * How many days the tenant's directory audit reaches back: 30 when its organization holds an
 * active Entra ID P1 or P2 service plan (an `assignedPlans` entry of service `AADPremiumService`,
 * "organization resource type"), else 7.
 * @throws as GraphApiClient.pages (Organization.Read.All, asked for by every backup)
 */
export async function auditRetentionDays(graph: GraphApiClient, signal?: AbortSignal): Promise<number> {
  for await (const page of graph.pages({
    template: '/v1.0/organization',
    select: ['id', 'assignedPlans'],
    signal,
  }))
    for (const organization of page)
      if (
        Array.isArray(organization.assignedPlans) &&
        organization.assignedPlans.some(
          (plan: { service?: unknown; capabilityStatus?: unknown }) =>
            plan.service === 'AADPremiumService' && ACTIVE_PLAN.has(String(plan.capabilityStatus)),
        )
      )
        return AUDIT_RETENTION_DAYS.premium;
  return AUDIT_RETENTION_DAYS.free;
}
