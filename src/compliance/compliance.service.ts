import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
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
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { TrackedRunRunner } from '@app/platform/jobs/tracked-run/tracked-run.runner.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { RestoreHistory } from '@app/restore/restore-history.js';
import type { ComplianceCheckDto } from './dto/compliance-check.dto.js';
import {
  type ComplianceCheckQueued,
  type ComplianceCheckRunDto,
  toComplianceCheckRunDto,
} from './dto/compliance-check-run.dto.js';
import { type ComplianceReportDto, toComplianceReportDto } from './dto/compliance-report.dto.js';
import { complianceCheckEntry } from './compliance-audit.js';
import type { ComplianceCheckEntity } from './compliance-check.entity.js';
import { ComplianceChecksRepository } from './compliance-checks.repository.js';
import type { ComplianceResultEntity } from './compliance-result.entity.js';
import { ComplianceRepository } from './compliance.repository.js';

/** Whether the caller accepts a 202 and polls (RFC 7240 `respond-async`). */
export interface CheckPreference {
  respondAsync: boolean;
}

/** The backup a request checks, and its stored result when there is one. */
interface CheckTarget {
  backup: BackupRef;
  provider: ProviderKind;
  stored: ComplianceResultEntity | null;
}

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
    private readonly checks: ComplianceChecksRepository,
    private readonly runner: TrackedRunRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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
    return this.answer(actor, body.framework, await this.target(actor, body));
  }

  /**
   * POST /api/compliance/check: as `check`, unless the caller prefers an asynchronous answer, no
   * stored result answers it and the backup holds more than COMPLIANCE_CHECK_SYNC_MAX_RECORDS
   * records: then the check is queued as a `compliance-check` job to poll (docs/decisions.md).
   * @throws what `check` throws, before anything is queued
   */
  async checkOrQueue(
    actor: Actor,
    body: ComplianceCheckDto,
    preference: CheckPreference,
  ): Promise<ComplianceReportDto | ComplianceCheckQueued> {
    await this.plans.assertComplianceFramework(actor, body.framework);
    const target = await this.target(actor, body);
    if (!preference.respondAsync || target.stored || !(await this.isLarge(target.backup)))
      return this.answer(actor, body.framework, target);
    const id = randomUUID();
    const facts = {
      id,
      teamId: actor.teamId,
      connectionId: target.backup.connectionId,
      backupId: target.backup.id,
    };
    await this.checks.insertPending({
      ...facts,
      framework: body.framework,
      requestedBy: actor.userId,
      clientId: actor.clientId ?? null,
    });
    await this.runner.enqueue({
      runs: this.checks,
      noun: 'compliance check',
      id,
      queue: 'compliance-check',
      data: { checkId: id },
      failedEntry: (error) =>
        complianceCheckEntry('compliance.check_failed', facts, { framework: body.framework, error }),
    });
    return { checkId: id, status: 'pending' };
  }

  /** A check queued as a job, with its report once completed. @throws NotFoundError for another team's or a missing one */
  async checkRun(actor: Actor, checkId: string): Promise<ComplianceCheckRunDto> {
    const run = await this.checks.findVisible(actor.teamId, checkId);
    if (!run) throw new NotFoundError('Compliance check');
    const stored = run.resultId === null ? null : await this.results.findResultById(run.teamId, run.resultId);
    return toComplianceCheckRunDto(run, stored ? toComplianceReportDto(stored) : null);
  }

  /**
   * The work of a queued check (ComplianceCheckJob): the stored result, or one computed now from
   * the snapshot and stored; recorded in the run trail like a check answered in the request.
   * @throws NotFoundError when retention deleted the backup since
   */
  async runQueued(run: ComplianceCheckEntity): Promise<ComplianceResultEntity> {
    if (run.backupId === null) throw new NotFoundError('Backup');
    const { backup } = await this.snapshots.open(run.teamId, run.backupId);
    const stored = await this.results.findResult(run.teamId, backup.id, run.framework, CATALOGUE_VERSION);
    const target = { backup, provider: backup.connection.provider, stored };
    return this.serve(target, run.framework, { requestedBy: run.requestedBy, clientId: run.clientId });
  }

  private async target(actor: Actor, body: ComplianceCheckDto): Promise<CheckTarget> {
    const connection = await this.connections.getRef(actor.teamId, body.connectionId);
    const backup = await this.backupToCheck(actor.teamId, connection.id, body.backupId);
    const stored = await this.results.findResult(actor.teamId, backup.id, body.framework, CATALOGUE_VERSION);
    return { backup, provider: connection.provider, stored };
  }

  /** Whether the backup holds more records than a check answers in the request. */
  private async isLarge(backup: BackupRef): Promise<boolean> {
    const { reader } = await this.snapshots.openFound(backup);
    const records = Object.values(reader.manifest.counts).reduce((sum, count) => sum + count, 0);
    return records > this.config.COMPLIANCE_CHECK_SYNC_MAX_RECORDS;
  }

  private async answer(
    actor: Actor,
    framework: ComplianceCheckDto['framework'],
    target: CheckTarget,
  ): Promise<ComplianceReportDto> {
    const result = await this.serve(target, framework, {
      requestedBy: actor.userId,
      clientId: actor.clientId ?? null,
    });
    // The audit trail records each check run (docs/compliance.md), served from the database or not.
    await this.audit.recordAlone({
      ...byCaller(actor),
      action: 'compliance.checked',
      target: { type: 'backup', id: target.backup.id },
      outcome: 'success',
      details: {
        connection_id: target.backup.connectionId,
        framework,
        served_from: target.stored ? 'stored' : 'computed',
        score: result.score,
      },
    });
    return toComplianceReportDto(result);
  }

  /** The stored result, or one computed and stored now; recorded in the run trail either way. */
  private async serve(
    { backup, provider, stored }: CheckTarget,
    framework: ComplianceCheckDto['framework'],
    by: Pick<ComplianceCheckEntity, 'requestedBy' | 'clientId'>,
  ): Promise<ComplianceResultEntity> {
    const result = stored ?? (await this.compute(backup, framework, provider));
    await this.results.recordRun({
      teamId: backup.teamId,
      resultId: result.id,
      connectionId: backup.connectionId,
      backupId: backup.id,
      framework,
      ...by,
      servedFrom: stored ? 'stored' : 'computed',
      score: result.score,
    });
    return result;
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
