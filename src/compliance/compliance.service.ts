import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CATALOGUE_VERSION, runFramework } from '@libs/compliance/compliance-engine.js';
import { FRAMEWORKS } from '@libs/compliance/frameworks/index.js';
import type { ProviderKind } from '@libs/providers/provider-kind.js';
import { providerDescriptor } from '@libs/providers/registry.js';
import { byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import type { BackupRef } from '@app/backups/backup-ref.js';
import { BackupSnapshotsService } from '@app/backups/backup-snapshots.service.js';
import type { Actor } from '@app/common/actor.js';
import { ConflictError, NotFoundError } from '@app/common/errors.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { RestoreHistory } from '@app/restore/restore-history.js';
import type { ComplianceCheckDto } from './dto/compliance-check.dto.js';
import { type ComplianceReportDto, toComplianceReportDto } from './dto/compliance-report.dto.js';
import { ComplianceRepository } from './compliance.repository.js';

/**
 * Compliance checks on backups (spec "Compliance", docs/compliance.md): read from the snapshot,
 * never from the provider; kept per backup, framework and catalogue version.
 */
@Injectable()
export class ComplianceService {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly snapshots: BackupSnapshotsService,
    private readonly restores: RestoreHistory,
    private readonly results: ComplianceRepository,
    private readonly audit: AuditService,
    private readonly plans: PlanLimitsService,
  ) {}

  /**
   * Checks the connection's latest completed backup (or `backupId`) against a framework. A
   * result stored for that backup, framework and catalogue version is returned as stored; each
   * request is recorded in the run trail. Every path to a check (this route, the compliance PDF
   * report) passes the plan's framework check here first.
   * @throws PlanLimitExceededError `compliance_frameworks` or `trial_ended` (402)
   * @throws NotFoundError for a connection or backup the team cannot see, or a backup of another connection
   * @throws ConflictError `no_backup` when the connection has no completed backup;
   *   `backup_not_completed` for a `backupId` still running or failed
   */
  async check(actor: Actor, body: ComplianceCheckDto): Promise<ComplianceReportDto> {
    await this.plans.assertComplianceFramework(actor, body.framework);
    const connection = await this.connections.getRef(actor.teamId, body.connectionId);
    const backup = await this.backupToCheck(actor.teamId, connection.id, body.backupId);
    const stored = await this.results.findResult(actor.teamId, backup.id, body.framework, CATALOGUE_VERSION);
    const result = stored ?? (await this.compute(backup, body.framework, connection.provider));
    await this.results.recordRun({
      teamId: actor.teamId,
      resultId: result.id,
      connectionId: connection.id,
      backupId: backup.id,
      framework: body.framework,
      requestedBy: actor.userId,
      clientId: actor.clientId ?? null,
      servedFrom: stored ? 'stored' : 'computed',
      score: result.score,
    });
    // The audit trail records each check run (issue 26), served from the database or not.
    await this.audit.recordAlone({
      ...byCaller(actor),
      action: 'compliance.checked',
      target: { type: 'backup', id: backup.id },
      outcome: 'success',
      details: {
        connection_id: connection.id,
        framework: body.framework,
        served_from: stored ? 'stored' : 'computed',
        score: result.score,
      },
    });
    return toComplianceReportDto(result);
  }

  private async backupToCheck(teamId: string, connectionId: string, backupId?: string): Promise<BackupRef> {
    if (backupId !== undefined) {
      const { backup } = await this.snapshots.open(teamId, backupId);
      if (backup.connectionId !== connectionId) throw new NotFoundError('Backup');
      return backup;
    }
    const latest = await this.snapshots.latest(teamId, connectionId);
    if (!latest)
      throw new ConflictError(
        'no_backup',
        'The connection has no completed backup yet: run one (POST /api/backup/run), then check again.',
      );
    return latest;
  }

  private async compute(
    backup: BackupRef,
    frameworkId: ComplianceCheckDto['framework'],
    provider: ProviderKind,
  ) {
    const framework = FRAMEWORKS[frameworkId];
    const [{ reader }, previous, lastRestore] = await Promise.all([
      this.snapshots.openFound(backup),
      this.snapshots.previousStartedAt(backup),
      this.restores.lastCompletedAt(backup.teamId, backup.connectionId, backup.startedAt),
    ]);
    const report = await runFramework(
      framework,
      providerDescriptor(provider)?.complianceChecks ?? [],
      reader,
      {
        backupId: backup.id,
        collectedAt: backup.startedAt.toISOString(),
        previousBackupAt: previous?.toISOString() ?? null,
        lastRestoreAt: lastRestore?.toISOString() ?? null,
      },
    );
    return this.results.saveResult({
      id: randomUUID(),
      teamId: backup.teamId,
      connectionId: backup.connectionId,
      backupId: backup.id,
      framework: framework.id,
      catalogueVersion: CATALOGUE_VERSION,
      frameworkVersion: `${framework.name} ${framework.version}`,
      score: report.score,
      findings: report.findings,
      generatedAt: new Date(),
    });
  }
}
