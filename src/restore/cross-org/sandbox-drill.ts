import { Injectable, Logger } from '@nestjs/common';
import { requireProvider } from '@libs/providers/registry.js';
import { executeRestore } from '@libs/restore/executor.js';
import { previewCrossOrg } from '@libs/restore/cross-org/cross-org-preview.js';
import type { CrossOrgMapping } from '@libs/restore/cross-org/mapping.js';
import type { RestoreItem } from '@libs/restore/items.js';
import { BackupSnapshotsService } from '@app/backups/backup-snapshots.service.js';
import { BackupsService } from '@app/backups/backups.service.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { crossOrgRestorer } from './cross-org-restorer.factory.js';
import type { SandboxDrillFailure, SandboxDrillReport } from './sandbox-drill-report.js';

/** Refused writes a report lists, at most. */
const MAX_FAILURES = 50;
/** A drill's restore never e-mails the backed-up users (Okta `activate=true` would). */
const NO_ACTIVATION = { activateUsers: false };

/**
 * The sandbox part of a restore drill (docs/restore.md "Into another org"): restores the whole
 * backup into another connection's org (the sandbox) with the engine of a restore into another
 * org, backs the sandbox up, then compares the backup with the sandbox modulo the mapping, type
 * by type (what a restore would still create or change there). Passes when the sandbox refused no
 * write and every object the provider's API can create is there.
 */
@Injectable()
export class SandboxDrills {
  private readonly logger = new Logger(SandboxDrills.name);

  constructor(
    private readonly connections: ConnectionsService,
    private readonly snapshots: BackupSnapshotsService,
    private readonly backups: BackupsService,
  ) {}

  /**
   * @param progress reports the drill's progress, percent (10 to 95) and what it does
   * @throws NotFoundError when the backup or the sandbox connection is gone; ProviderError when
   *   the sandbox cannot be read or refuses the credentials; PreRestoreBackupFailedError when its
   *   backup fails; SnapshotIntegrityError
   */
  async run(
    drill: {
      teamId: string;
      backupId: string;
      targetConnectionId: string;
      mapping: CrossOrgMapping;
      ownerUserId: string;
    },
    progress: (pct: number, message: string) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<SandboxDrillReport> {
    const { teamId, targetConnectionId: sandboxId, mapping } = drill;
    const sandbox = await this.connections.getRef(teamId, sandboxId);
    const { reader } = await this.snapshots.open(teamId, drill.backupId);
    const selection = { types: new Set(reader.types) };
    const failures: SandboxDrillFailure[] = [];
    const writer = await this.connections.openConnector(teamId, sandboxId, reader.types);
    let summary;
    try {
      summary = await executeRestore({
        snapshot: reader,
        connector: writer,
        restorer: crossOrgRestorer(writer, sandbox.provider, NO_ACTIVATION, mapping),
        selection,
        prune: false,
        crossOrg: true,
        signal,
        sink: {
          record: async (items: RestoreItem[]) => {
            for (const item of items)
              if (item.outcome === 'failed' && failures.length < MAX_FAILURES)
                failures.push({
                  resourceType: item.resourceType,
                  resourceId: item.resourceId,
                  error: item.error ?? '',
                });
          },
          progress: (pct, message) =>
            progress(10 + Math.round(pct / 2), `Restoring into the sandbox: ${message}`),
          internalError: (error) =>
            this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error)),
        },
      });
    } finally {
      await writer.close();
    }
    await progress(65, 'Backing the sandbox up');
    const sandboxBackupId = await this.backups.takePreRestoreBackup(teamId, sandboxId, drill.ownerUserId, {
      signal,
      onWait: (message) => progress(65, message),
    });
    await progress(85, 'Comparing the backup with the sandbox, modulo the mapping');
    const reader2 = await this.connections.openConnector(teamId, sandboxId);
    try {
      const restorer = crossOrgRestorer(reader2, sandbox.provider, NO_ACTIVATION, mapping);
      const { rows } = await previewCrossOrg({
        snapshot: reader,
        connector: reader2,
        restorer,
        selection,
        severityRules: requireProvider(sandbox.provider).severityRules,
      });
      const notWritable = rows
        .map((row) => row.resourceType)
        .filter((type) => !restorer.support(type).create);
      const types = rows.map((row) => ({
        resourceType: row.resourceType,
        missing: row.create,
        different: row.update,
        same: row.skip,
        sandboxOnly: row.pruneCandidates,
      }));
      const restored = { create: 0, update: 0, skip: 0, failed: 0 };
      for (const type of Object.values(summary))
        for (const key of Object.keys(restored) as Array<keyof typeof restored>) restored[key] += type[key];
      const missing = types.filter((type) => type.missing > 0 && !notWritable.includes(type.resourceType));
      return {
        targetConnectionId: sandboxId,
        sandboxBackupId,
        passed: restored.failed === 0 && missing.length === 0,
        restored,
        failures,
        types,
        notWritable,
      };
    } finally {
      await reader2.close();
    }
  }
}

/** Why a sandbox drill did not pass, for its error message. */
export function sandboxDrillFailure(report: SandboxDrillReport): string {
  const refused = report.failures
    .slice(0, 3)
    .map((failure) => `${failure.resourceType} ${failure.resourceId}: ${failure.error}`);
  const missing = report.types
    .filter((type) => type.missing > 0 && !report.notWritable.includes(type.resourceType))
    .map((type) => `${type.missing} ${type.resourceType}`);
  return [
    'The sandbox drill did not pass',
    ...(report.restored.failed
      ? [`the sandbox refused ${report.restored.failed} writes (${refused.join('; ')})`]
      : []),
    ...(missing.length ? [`still missing in the sandbox: ${missing.join(', ')}`] : []),
  ].join(': ');
}
