import { ProviderError } from '@libs/providers/provider-errors.js';

import type { GraphApiClient } from './graph-api-client.js';

/** Microsoft Entra Backup and Recovery's jobs, preview and recovery ("List jobs"). */
export const RECOVERY_JOBS_TEMPLATE = '/v1.0/directory/recovery/jobs';

/**
 * Whether a native recovery (Microsoft Entra Backup and Recovery) may have changed the tenant
 * at or after `sinceMs` (epoch ms): a recovery job (not a preview, which changes nothing) still
 * running or completed since then, whatever its status (a failed one may have applied part of its
 * changes). Such a recovery writes no delta records ("Recovery jobs don't generate change
 * notifications through subscriptions or delta records", Backup and Recovery overview), so delta
 * links read before it miss what it changed.
 * @throws what GraphApiClient.pages throws (ProviderAuthError without EntraBackup.Read.All)
 */
export async function nativeRecoverySince(
  graph: GraphApiClient,
  sinceMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  for await (const page of graph.pages({ template: RECOVERY_JOBS_TEMPLATE, paged: true, signal }))
    for (const job of page) {
      if (!String(job['@odata.type'] ?? '').endsWith('.recoveryJob')) continue;
      const completed = job.jobCompletionDateTime;
      if (completed === null || completed === undefined || Date.parse(String(completed)) >= sinceMs)
        return true;
    }
  return false;
}

/** The error that makes an incremental run full after a native recovery since its base. */
export function nativeRecoveryError(): ProviderError {
  return new ProviderError(
    'A native Entra recovery (Backup and Recovery) ran since the base backup: it writes no delta records, so the backup runs full',
    'cursor_expired',
  );
}
