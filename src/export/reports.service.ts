import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import { byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { BackupSnapshotsService } from '@app/backups/backup-snapshots.service.js';
import { BackupsService } from '@app/backups/backups.service.js';
import type { Actor } from '@app/common/actor.js';
import { ConflictError, NotFoundError } from '@app/common/errors.js';
import { ComplianceService } from '@app/compliance/compliance.service.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { KEY_RING } from '@app/platform/security/key-ring.provider.js';
import { OBJECT_STORE } from '@app/platform/storage/storage.module.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import type { ReportRequestDto } from './dto/report-request.dto.js';
import { ReportRenderer } from './report-renderer.js';
import {
  reportObjectKey,
  ReportUrlSigner,
  type SignedReportQuery,
} from '@app/common/downloads/report-url.js';
import { ReportsRepository } from './reports.repository.js';
import { activityReport, type ActivityEvent } from './templates/activity-report.js';
import { backupReport } from './templates/backup-report.js';
import { complianceReport, type ComplianceSection } from './templates/compliance-report.js';
import type { ReportCover } from './templates/layout.js';

/** Expired reports removed per batch by the report-expiry job. */
const EXPIRY_BATCH = 100;

/** Most audit events an activity report reads; beyond, it counts them (the audit pack has them all). */
export const MAX_ACTIVITY_EVENTS = 2_000;

/** Audit events read per query by an activity report. */
const ACTIVITY_PAGE = 500;

/**
 * PDF reports (spec "Export", docs/export.md): gathered from what the service holds, rendered by
 * Chromium, stored under the team's prefix in the object store, and handed out as a signed URL
 * that expires (REPORT_URL_TTL).
 */
@Injectable()
export class ReportsService {
  private readonly urls: ReportUrlSigner;

  constructor(
    private readonly renderer: ReportRenderer,
    private readonly backups: BackupsService,
    private readonly snapshots: BackupSnapshotsService,
    private readonly compliance: ComplianceService,
    private readonly connections: ConnectionsService,
    private readonly audit: AuditService,
    private readonly teams: TeamsService,
    private readonly reports: ReportsRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(KEY_RING) keyRing: KeyRing,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.urls = new ReportUrlSigner(keyRing, config.BASE_URL, config.REPORT_URL_TTL);
  }

  /**
   * Renders and stores one report, recorded in the audit trail as `export.report` (type, what
   * it covers, report id), as the audit pack and the account export are.
   * @returns its signed download URL and when that expires (ISO 8601)
   * @throws NotFoundError for a backup or connection the team cannot see
   * @throws PlanLimitExceededError (402) for a compliance framework the plan lacks (ComplianceService.check)
   * @throws ConflictError `backup_not_completed`; ReportUnavailableError (503) when Chromium cannot render
   */
  async create(actor: Actor, request: ReportRequestDto): Promise<{ url: string; expiresAt: string }> {
    // Chromium starts while the data is gathered (a compliance check can take seconds).
    this.renderer.warmUp();
    const cover = await this.cover(actor);
    const html =
      request.type === 'backup'
        ? await this.backupHtml(actor, request.backupId!, cover)
        : request.type === 'compliance'
          ? await this.complianceHtml(actor, request, cover)
          : await this.activityHtml(actor, request.from!, request.to!, cover);
    const pdf = await this.renderer.render(html);
    const reportId = randomUUID();
    const signed = this.urls.sign(actor.teamId, reportId);
    const objectKey = reportObjectKey(actor.teamId, reportId);
    // The row first: a crash before the object is written leaves a row the expiry job clears.
    await this.reports.insert({
      id: reportId,
      teamId: actor.teamId,
      type: request.type,
      objectKey,
      createdBy: actor.userId,
      expiresAt: new Date(signed.expiresAt),
    });
    await this.store.put(objectKey, pdf, { contentType: 'application/pdf' });
    await this.audit.recordAlone({
      ...byCaller(actor),
      action: 'export.report',
      target: { type: 'report', id: reportId },
      outcome: 'success',
      details: reportFacts(request),
    });
    return signed;
  }

  /**
   * Removes the reports whose signed URL expired at `now` (the report-expiry job): each object,
   * then its row, a batch at a time.
   * @returns how many were removed
   */
  async removeExpired(now: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const expired = await this.reports.findExpired(now, EXPIRY_BATCH);
      for (const report of expired) await this.store.deletePrefix(report.objectKey);
      await this.reports.delete(expired.map((report) => report.id));
      removed += expired.length;
      if (expired.length < EXPIRY_BATCH) return removed;
    }
  }

  /**
   * The stored PDF a signed URL names.
   * @throws ForbiddenError for an expired, altered or other report's signature; NotFoundError when the object is gone
   */
  async download(reportId: string, query: SignedReportQuery): Promise<{ body: Readable; filename: string }> {
    const teamId = this.urls.verify(reportId, query);
    const key = reportObjectKey(teamId, reportId);
    if (!(await this.store.head(key))) throw new NotFoundError('Report');
    return { body: await this.store.get(key), filename: `report-${reportId}.pdf` };
  }

  private async cover(actor: Actor): Promise<Omit<ReportCover, 'title' | 'facts'>> {
    const [team, owner] = await Promise.all([
      this.teams.getName(actor.teamId),
      this.teams.getOwner(actor.teamId),
    ]);
    return {
      team,
      generatedAt: new Date().toISOString(),
      generatedBy: actor.clientId
        ? `integration client ${actor.clientId}`
        : actor.userId === owner.id
          ? owner.email
          : actor.userId,
    };
  }

  private async backupHtml(
    actor: Actor,
    backupId: string,
    cover: Omit<ReportCover, 'title' | 'facts'>,
  ): Promise<string> {
    const backup = await this.backups.get(actor, backupId);
    if (backup.status !== 'completed')
      throw new ConflictError(
        'backup_not_completed',
        `Backup ${backupId} is ${backup.status}, not completed`,
      );
    // Opening authenticates the manifest and checks its SHA-256 against the one recorded at the end of the backup.
    const { reader } = await this.snapshots.open(actor.teamId, backupId);
    const seconds = backup.completed_at
      ? (Date.parse(backup.completed_at) - Date.parse(backup.started_at)) / 1000
      : null;
    return backupReport({
      cover: {
        ...cover,
        title: 'Backup report',
        facts: [
          ['Connection', backup.connection.org_name ?? backup.connection.org_url],
          ['Org URL', backup.connection.org_url],
          ['Provider', backup.connection.provider],
          ['Backup', backup.id],
        ],
      },
      backup: {
        id: backup.id,
        status: backup.status,
        kind: backup.kind,
        triggeredBy: backup.triggered_by,
        startedAt: backup.started_at,
        completedAt: backup.completed_at,
        seconds,
        size: backup.size,
        requests: backup.requests,
        sha256: backup.sha256,
        baseBackupId: backup.base_backup_id,
        errorMessage: backup.error_message,
        counts: backup.resource_counts,
      },
      notCaptured: (reader.manifest.meta.notCaptured ?? {}) as Record<string, string[]>,
      integrity: `The snapshot's manifest authenticates under the master key and its SHA-256 (${reader.sha256}) is the one recorded when the backup finished; every frame is authenticated (AES-256-GCM) as it is read.`,
    });
  }

  private async complianceHtml(
    actor: Actor,
    request: ReportRequestDto,
    cover: Omit<ReportCover, 'title' | 'facts'>,
  ): Promise<string> {
    const connections = request.connectionId
      ? [await this.connections.get(actor, request.connectionId)]
      : await this.connections.list(actor);
    const sections: ComplianceSection[] = [];
    let catalogueVersion = '';
    let frameworkName: string = request.framework!;
    for (const connection of connections) {
      const result = await this.compliance
        .check(actor, { connectionId: connection.id, framework: request.framework! })
        .catch((error: unknown) => {
          // A connection without a completed backup has nothing to check: left out of the report.
          if (error instanceof ConflictError && !request.connectionId) return null;
          throw error;
        });
      if (!result) continue;
      catalogueVersion = result.catalogue_version;
      frameworkName = result.framework_version;
      sections.push({
        connection: connection.org_name ?? connection.org_url,
        orgUrl: connection.org_url,
        backupId: result.backupId,
        collectedAt: result.findings[0]?.evidence.collectedAt ?? result.generatedAt,
        score: result.score,
        findings: result.findings,
      });
    }
    return complianceReport({
      cover: {
        ...cover,
        title: `Compliance report: ${frameworkName}`,
        facts: [
          ['Framework', frameworkName],
          ['Connections', sections.map((section) => section.connection).join(', ') || 'none with a backup'],
        ],
      },
      framework: frameworkName,
      catalogueVersion,
      sections,
    });
  }

  private async activityHtml(
    actor: Actor,
    from: Date,
    to: Date,
    cover: Omit<ReportCover, 'title' | 'facts'>,
  ): Promise<string> {
    const events: ActivityEvent[] = [];
    let after: string | undefined;
    let more = 0;
    for (;;) {
      const limit = Math.min(ACTIVITY_PAGE, MAX_ACTIVITY_EVENTS - events.length);
      const page = await this.audit.list(actor, { from, to, after, limit });
      for (const event of page.events)
        events.push({
          occurredAt: event.occurred_at,
          actor:
            event.actor.email ??
            (event.actor.client_id ? `client ${event.actor.client_id}` : event.actor.type),
          action: event.action,
          target: `${event.target.type}${event.target.id ? ` ${event.target.id}` : ''}`,
          outcome: event.outcome,
        });
      if (!page.nextAfter) break;
      after = page.nextAfter;
      if (events.length >= MAX_ACTIVITY_EVENTS) {
        // The rest of the period is only counted, by the database.
        more = await this.audit.count(actor, { from, to, after });
        break;
      }
    }
    // The trail pages newest first; a report reads oldest first.
    events.reverse();
    return activityReport({
      cover: {
        ...cover,
        title: 'Activity report',
        facts: [['Period', `${from.toISOString()} to ${to.toISOString()}`]],
      },
      events,
      more,
    });
  }
}

/** The audit details of a report: its type and what it covers (spec "Export" request fields). */
function reportFacts(request: ReportRequestDto): Record<string, string | null> {
  if (request.type === 'backup') return { type: 'backup', backup_id: request.backupId! };
  if (request.type === 'compliance')
    return { type: 'compliance', framework: request.framework!, connection_id: request.connectionId ?? null };
  return { type: 'activity', from: request.from!.toISOString(), to: request.to!.toISOString() };
}
