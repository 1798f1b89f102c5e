import { recordPatch } from '@libs/diff/record-patch.js';
import type { DrillResult } from './drill-result.js';
import type { ServiceClient } from './service-client.js';

interface RestoreView {
  restore: {
    status: string;
    progress_pct: number;
    progress_message: string;
    totals: DrillResult['writes'];
  };
}

interface RestoreItemsPage {
  items: Array<{
    resourceType: string;
    resourceId: string;
    action: string;
    outcome: string;
    newId?: string;
    error?: string;
  }>;
  items_total: number;
}

/** A drill's restore once it is over: its id, status, write totals and wall time (s). */
export interface DrillRestore {
  restoreId: string;
  status: string;
  totals: DrillResult['writes'];
  seconds: number;
}

/**
 * A drill's selective restore through the public API (`POST /api/restore` of `types` narrowed to
 * `ids`), polled until it is over (at most 10 minutes), its progress said.
 */
export async function runDrillRestore(
  api: ServiceClient,
  backupId: string,
  selection: { types: string[]; ids: string[] },
  say: (line: string) => void,
): Promise<DrillRestore> {
  const started = Date.now();
  const { restoreId } = await api.post<{ restoreId: string }>('/api/restore', {
    backupId,
    mode: 'selective',
    resourceTypes: selection.types,
    resourceIds: selection.ids,
  });
  const view = await api.poll<RestoreView>(
    `/api/restore/${restoreId}?limit=1`,
    (current) => !['pending', 'running'].includes(current.restore.status),
    (current) => [current.restore.progress_pct, current.restore.progress_message],
    (pct, message) => say(`  ${pct.toFixed(0).padStart(3)} % ${message}`),
    600_000,
  );
  return {
    restoreId,
    status: view.restore.status,
    totals: view.restore.totals,
    seconds: Number(((Date.now() - started) / 1000).toFixed(2)),
  };
}

/** The id of the object a restore re-created for `deleted`, from its items; null when it made none. */
export async function recreatedId(
  api: ServiceClient,
  restoreId: string,
  deleted: { type: string; id: string },
): Promise<string | null> {
  for (let offset = 0; ; offset += 1000) {
    const page = await api.get<RestoreItemsPage>(`/api/restore/${restoreId}?limit=1000&offset=${offset}`);
    const item = page.items.find(
      (candidate) =>
        candidate.resourceType === deleted.type &&
        candidate.resourceId === deleted.id &&
        candidate.action === 'create' &&
        candidate.outcome === 'ok',
    );
    if (item) return item.newId ?? item.resourceId;
    if (offset + page.items.length >= page.items_total || page.items.length === 0) return null;
  }
}

/** The first few failed writes of a restore, as `failed <action> <type> <id>: <error>`. */
export async function failedWrites(api: ServiceClient, restoreId: string): Promise<string[]> {
  const page = await api.get<RestoreItemsPage>(`/api/restore/${restoreId}?failedOnly=true&limit=5`);
  return page.items.map(
    (item) => `failed ${item.action} ${item.resourceType} ${item.resourceId}: ${item.error}`,
  );
}

/**
 * The JSON pointers where a re-created object differs from its backed-up record, apart from the
 * fields the provider assigns (`assigned`, at any depth).
 */
export function differences(
  backedUp: Record<string, unknown>,
  live: Record<string, unknown>,
  assigned: ReadonlySet<string>,
): string[] {
  return recordPatch(backedUp, live, assigned)
    .filter((operation) => operation.op !== 'test')
    .map((operation) => operation.path);
}
