import type { ServiceClient } from '@tools/demo/service-client.js';

/** GET /api/restore/{id}'s restore, as a bench reads it. */
export interface BenchRestoreView {
  restore: {
    status: string;
    progress_pct: number;
    progress_message: string;
    error_message: string | null;
    summary: Record<string, { create: number; update: number; failed: number }>;
  };
}

/**
 * Starts a restore through `POST /api/restore` with `body` and polls it until it is over (at most
 * six hours), logging its progress.
 * @returns the final view and the wall time from the request, seconds
 * @throws Error when the restore failed
 */
export async function runBenchRestore(
  api: ServiceClient,
  body: Record<string, unknown>,
  log: (line: string) => void,
): Promise<{ view: BenchRestoreView; seconds: number }> {
  const started = performance.now();
  const { restoreId } = await api.post<{ restoreId: string }>('/api/restore', body);
  const view = await api.poll<BenchRestoreView>(
    `/api/restore/${restoreId}?limit=1`,
    (current) => !['pending', 'running'].includes(current.restore.status),
    (current) => [current.restore.progress_pct, current.restore.progress_message],
    (pct, message) => log(`  ${pct.toFixed(0).padStart(3)} % ${message}`),
    6 * 3_600_000,
  );
  const seconds = (performance.now() - started) / 1000;
  if (view.restore.status === 'failed') throw new Error(`restore failed: ${view.restore.error_message}`);
  return { view, seconds };
}
