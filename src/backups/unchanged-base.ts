import { ProviderAuthError } from '@libs/providers/provider-errors.js';
import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import { requireProvider } from '@libs/providers/registry.js';
import type { RunContext } from '@app/platform/jobs/tracked-run/tracked-run-kind.js';
import type { BackupEntity } from './backup.entity.js';
import { backupEntry, factsOf } from './backup-audit.js';
import type { BackupsRepository } from './backups.repository.js';

/**
 * The base of an incremental backup when nothing changed since it started, by the provider's
 * audit log, for providers whose log records every configuration change (the descriptor's
 * `skipsUnchanged`: Okta Workflows, where the export is costly and capped by Okta's export
 * capacity). Undefined when the backup must fetch: a full backup (`forceFullBackup`), another
 * provider, a change logged since, or a log that cannot be read (the backup then exports as usual).
 * @throws ProviderAuthError when the provider refuses the credentials (the backup fails as usual)
 */
export async function unchangedBase(
  backup: BackupEntity,
  connector: ProviderConnector,
  runs: BackupsRepository,
  signal: AbortSignal,
): Promise<BackupEntity | undefined> {
  if (!requireProvider(backup.connection.provider).skipsUnchanged) return undefined;
  if (backup.kind !== 'incremental' || backup.baseBackupId === null || !connector.configurationChangesSince)
    return undefined;
  const base = await runs.findVisible(backup.teamId, backup.baseBackupId);
  if (base?.status !== 'completed') return undefined;
  try {
    for await (const _change of connector.configurationChangesSince(base.startedAt.toISOString(), { signal }))
      return undefined;
  } catch (error) {
    if (error instanceof ProviderAuthError) throw error;
    return undefined;
  }
  return base;
}

/**
 * Ends `backup` as a record of `base`'s snapshot (docs/okta-workflows.md "Skip when nothing changed"): same
 * objects, counts and digest; the progress message says so. Deleting either backup keeps the
 * objects while the other points at them (BackupsService.delete).
 * @param requests what asking the audit log cost
 */
export async function recordUnchanged(
  backup: BackupEntity,
  base: BackupEntity,
  requests: number,
  context: RunContext<BackupEntity>,
): Promise<void> {
  const { label } = requireProvider(backup.connection.provider);
  await context.finish(
    {
      status: 'completed',
      message: `No ${label} change in the audit log since backup ${base.id}: its snapshot is still current, nothing was exported`,
      fields: {
        storageKey: base.storageKey,
        resourceCounts: base.resourceCounts,
        resourceTypes: base.resourceTypes,
        size: base.size,
        sha256: base.sha256,
        requests,
      },
    },
    backupEntry('backup.completed', factsOf(backup), {
      kind: 'unchanged',
      resources: Object.values(base.resourceCounts).reduce((sum, n) => sum + n, 0),
      previous_backup_id: base.id,
    }),
  );
}
