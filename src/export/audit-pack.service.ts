import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import type { FrameworkId } from '@libs/compliance/frameworks/framework-types.js';
import { ObjectNotFoundError } from '@libs/object-store/object-store-errors.js';
import { SnapshotIntegrityError, SnapshotNotFoundError } from '@libs/snapshot/snapshot-errors.js';
import { byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { BackupsService } from '@app/backups/backups.service.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import type { Actor } from '@app/common/actor.js';
import { ApiError, ValidationError } from '@app/common/errors.js';
import type { PeriodFilter } from '@app/common/keyset-rows.js';
import { ComplianceService } from '@app/compliance/compliance.service.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { ConnectionsService } from '@app/connections/connections.service.js';
import { RestoreDrillsService } from '@app/drills/restore-drills.service.js';
import { NotificationsService } from '@app/notifications/notifications.service.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { RestoreService, type RestoreWithItems } from '@app/restore/restore.service.js';
import { KEY_RING } from '@app/platform/security/key-ring.provider.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import type { AuditPackRequestDto } from './dto/audit-pack-request.dto.js';
import { PackSigner, type PublicSigningKey } from './pack-signer.js';
import { signedClosingFiles } from './pack-manifest.js';
import { csvRows, jsonArray, jsonLines, type PackFile, zipPack } from '@app/common/downloads/zip-pack.js';

/** Audit events read per page (GET /api/audit-events' largest page). */
const AUDIT_PAGE = 500;

/** The columns of backups.csv: one backup a line. */
const BACKUP_COLUMNS: ReadonlyArray<readonly [string, (backup: BackupDto) => unknown]> = [
  ['id', (b) => b.id],
  ['connection_id', (b) => b.connection_id],
  ['org_url', (b) => b.connection.org_url],
  ['org_name', (b) => b.connection.org_name],
  ['status', (b) => b.status],
  ['kind', (b) => b.kind],
  ['triggered_by', (b) => b.triggered_by],
  ['started_at', (b) => b.started_at],
  ['completed_at', (b) => b.completed_at],
  ['size_bytes', (b) => b.size],
  ['records', (b) => Object.values(b.resource_counts).reduce((sum, count) => sum + count, 0)],
  ['resource_types', (b) => b.resource_types.join(' ')],
  ['manifest_sha256', (b) => b.sha256],
  ['error_message', (b) => b.error_message],
];

/** A ZIP on its way out and the name to give it. */
export interface AuditPackDownload {
  stream: Readable;
  filename: string;
}

/**
 * The audit pack (spec "Export" POST /api/export/audit-pack, docs/export.md): a ZIP an auditor can
 * check with openssl and sha256sum alone. Every file is streamed from the database a page at a
 * time as the client downloads, digested on the way, and listed with its SHA-256 and size in
 * SHA256SUMS and MANIFEST.json, both signed with the service's Ed25519 key (PackSigner), whose
 * public key GET /api/export/signing-key serves. Memory stays flat whatever the period
 * (bench/audit-pack.bench.ts).
 */
@Injectable()
export class AuditPackService {
  private readonly signer: PackSigner;

  constructor(
    private readonly backups: BackupsService,
    private readonly restores: RestoreService,
    private readonly drills: RestoreDrillsService,
    private readonly compliance: ComplianceService,
    private readonly connections: ConnectionsService,
    private readonly notifications: NotificationsService,
    private readonly plans: PlanLimitsService,
    private readonly audit: AuditService,
    private readonly teams: TeamsService,
    @Inject(KEY_RING) keyRing: KeyRing,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.signer = new PackSigner(keyRing);
  }

  /**
   * Checks the request and starts the pack; the files are read as the returned stream is.
   * @throws ValidationError naming `to` when it is before `from`; NotFoundError for a connection
   *   the team cannot see
   */
  async create(actor: Actor, request: AuditPackRequestDto): Promise<AuditPackDownload> {
    const from = new Date(request.from);
    const to = new Date(request.to);
    if (to < from)
      throw new ValidationError('to must not be before from', [{ field: 'to', message: 'before from' }]);
    const connectionIds = request.connectionIds
      ? await Promise.all(
          [...new Set(request.connectionIds)].map(
            async (id) => (await this.connections.getRef(actor.teamId, id)).id,
          ),
        )
      : (await this.connections.list(actor)).map((connection) => connection.id);
    const frameworks = await this.plans.complianceFrameworks(actor);
    const generatedAt = new Date();
    await this.audit.recordAlone({
      ...byCaller(actor),
      action: 'export.audit_pack',
      target: { type: 'team', id: actor.teamId },
      outcome: 'success',
      details: { from: from.toISOString(), to: to.toISOString(), connection_ids: connectionIds, frameworks },
    });
    const filter: PeriodFilter = { from, to, connectionIds };
    const files = [
      ...this.recordFiles(actor, filter, frameworks),
      ...signedClosingFiles(this.signer, {
        teamId: actor.teamId,
        team: async () => `${await this.teams.getName(actor.teamId)} (${actor.teamId})`,
        period: filter,
        connectionIds,
        generatedAt,
        keyUrl: (keyId) => `${this.config.BASE_URL}/api/export/signing-key?kid=${encodeURIComponent(keyId)}`,
      }),
    ];
    return {
      stream: zipPack(files, generatedAt),
      filename: `audit-pack-${day(from)}-${day(to)}.zip`,
    };
  }

  /** GET /api/export/signing-key: the public key packs signed under `keyId` verify against. */
  publicKey(keyId?: string): PublicSigningKey {
    return this.signer.publicKey(keyId);
  }

  private recordFiles(actor: Actor, filter: PeriodFilter, frameworks: FrameworkId[]): PackFile[] {
    const { teamId } = actor;
    const period = { from: filter.from, to: filter.to };
    // connectionIds is never empty in a query: a team without connections still gets its (empty) files.
    const scoped = filter.connectionIds.length > 0;
    const none = async function* <T>(): AsyncGenerator<T> {};
    return [
      {
        path: 'backups.csv',
        content: () => csvRows(BACKUP_COLUMNS, scoped ? this.backups.listPeriod(teamId, filter) : none()),
      },
      {
        path: 'backups.json',
        content: () => jsonArray(scoped ? this.backups.listPeriod(teamId, filter) : none()),
      },
      {
        path: 'restores.json',
        content: () => restoresJson(scoped ? this.restores.listPeriod(teamId, filter) : none()),
      },
      {
        path: 'restore-drills.json',
        content: () => jsonArray(scoped ? this.drillsOf(teamId, filter) : none()),
      },
      ...frameworks.map((framework) => ({
        path: `compliance/${framework}.json`,
        content: () => this.complianceJson(actor, filter, framework),
      })),
      { path: 'audit-events.jsonl', content: () => jsonLines(this.auditEvents(actor, period)) },
      {
        path: 'notifications.json',
        content: () => jsonArray(this.notifications.listTeamPeriod(teamId, period)),
      },
    ];
  }

  /** Verification drills, then restores as drills (each one a real restore of a backup). */
  private async *drillsOf(teamId: string, filter: PeriodFilter): AsyncGenerator<unknown> {
    yield* this.drills.listPeriod(teamId, filter);
    for await (const { restore } of this.restores.listPeriod(teamId, filter)) {
      const { summary: _summary, ...rest } = restore;
      yield {
        ...rest,
        kind: 'restore',
        outcome:
          restore.status === 'completed'
            ? 'passed'
            : restore.status === 'partial' || restore.status === 'failed'
              ? 'failed'
              : null,
      };
    }
  }

  /**
   * One framework's findings for each connection of the pack, checked on its latest completed
   * backup of the period (a result stored for that backup is reused), one connection at a time.
   */
  private async *complianceJson(
    actor: Actor,
    filter: PeriodFilter,
    framework: FrameworkId,
  ): AsyncGenerator<string> {
    const period = { from: filter.from, to: filter.to };
    yield `{"framework":${JSON.stringify(framework)},"period":${JSON.stringify(period)},"connections":`;
    yield* jsonArray(this.complianceResults(actor, filter, framework));
    yield '}\n';
  }

  private async *complianceResults(
    actor: Actor,
    filter: PeriodFilter,
    framework: FrameworkId,
  ): AsyncGenerator<unknown> {
    for (const connectionId of filter.connectionIds) {
      const backupId = (
        await this.backups.latestCompletedIn(actor.teamId, connectionId, filter.from, filter.to)
      )?.id;
      if (!backupId) {
        yield { connectionId, backupId: null, note: 'No completed backup in the period: nothing to check.' };
        continue;
      }
      // One backup that cannot be read is reported in its place; the pack goes on.
      yield await this.compliance
        .check(actor, { connectionId, framework, backupId })
        .catch((error: unknown) => ({ connectionId, backupId, error: unreadable(error) }));
    }
  }

  /** The team's audit events of the period (both ends included), newest first, a page at a time. */
  private async *auditEvents(actor: Actor, period: { from: Date; to: Date }): AsyncGenerator<unknown> {
    // GET /api/audit-events' `to` is exclusive: one millisecond more includes the period's end.
    const to = new Date(period.to.getTime() + 1);
    let after: string | undefined;
    do {
      const page = await this.audit.list(actor, { from: period.from, to, after, limit: AUDIT_PAGE });
      yield* page.events;
      after = page.nextAfter ?? undefined;
    } while (after);
  }
}

/** restores.json: each restore as the API returns it, with `items` streamed inside it. */
async function* restoresJson(restores: AsyncIterable<RestoreWithItems>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const { restore, items } of restores) {
    yield `${first ? '\n' : ',\n'}${JSON.stringify(restore).slice(0, -1)},"items":`;
    yield* jsonArray(items());
    yield '}';
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

/**
 * What to say of a backup whose check failed: why it could not be read, or what the service
 * refused.
 * @throws the error itself when it is none of those (an internal error fails the pack)
 */
function unreadable(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (
    error instanceof SnapshotIntegrityError ||
    error instanceof SnapshotNotFoundError ||
    error instanceof ObjectNotFoundError
  )
    return `The backup's snapshot cannot be read: ${error.message}`;
  throw error;
}

/** YYYYMMDD of an instant, UTC. */
function day(at: Date): string {
  return at.toISOString().slice(0, 10).replace(/-/g, '');
}
