import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ConnectionRefDto, toConnectionRefDto } from '@app/connections/dto/connection-ref.dto.js';
import type { BackupEntity, BackupKind, BackupStatus, BackupTrigger } from '@app/backups/backup.entity.js';
import type { BackupStarted } from '@app/backups/backup-started.js';

/** A backup as the API returns it: the snake_case fields of DESIGN section 4. */
@ApiSchema({ name: 'Backup' })
export class BackupDto {
  @ApiProperty({ format: 'uuid', example: '6f1c0a8d-2f3e-4b4e-9f51-0d6c2a8e5a5b' }) id!: string;
  @ApiProperty({ format: 'uuid' }) connection_id!: string;
  @ApiProperty({ type: ConnectionRefDto }) connection!: ConnectionRefDto;
  @ApiProperty({ enum: ['running', 'completed', 'failed'] }) status!: BackupStatus;
  @ApiProperty({ enum: ['full', 'incremental'] }) kind!: BackupKind;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true }) base_backup_id!: string | null;
  @ApiProperty({
    description: 'The job id (`instanceId` of the run response).',
    type: String,
    nullable: true,
  })
  instance_id!: string | null;
  @ApiProperty({ minimum: 0, maximum: 100, example: 100 }) progress_pct!: number;
  @ApiProperty({ example: 'Backup completed' }) progress_message!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) error_message!: string | null;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) completed_at!: string | null;
  @ApiProperty() storage_key!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { user: 1200, group: 40 },
  })
  resource_counts!: Record<string, number>;
  @ApiProperty({ type: [String] }) resource_types!: string[];
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Bytes stored.' }) size!: number;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'SHA-256 of the manifest as stored.' })
  sha256!: string | null;
  @ApiProperty({ enum: ['manual', 'schedule', 'pre_restore'] }) triggered_by!: BackupTrigger;
  @ApiProperty({ type: [String], nullable: true }) include!: string[] | null;
  @ApiProperty() include_workflows!: boolean;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Requests made to the provider.' })
  requests!: number;
}

/** Aggregate counts of GET /api/backup/list with `includeStats=true` (spec "Backup"). */
@ApiSchema({ name: 'BackupStats' })
export class BackupStatsDto {
  @ApiProperty({ type: 'integer' }) totalBackups!: number;
  @ApiProperty({ type: 'integer' }) completedBackups!: number;
  @ApiProperty({ type: 'integer' }) failedBackups!: number;
  @ApiProperty({ description: 'completed / (completed + failed), 0 to 1; 0 when none finished.' })
  successRate!: number;
  @ApiProperty({ type: 'integer', description: 'bytes' }) totalSize!: number;
  @ApiProperty({ type: [String] }) resourceTypes!: string[];
}

/** GET /api/backup/status: an in-flight backup's progress (spec "Backups"). */
@ApiSchema({ name: 'BackupStatus' })
export class BackupStatusDto {
  @ApiProperty({ enum: ['running', 'completed', 'failed'] }) status!: BackupStatus;
  @ApiProperty({ minimum: 0, maximum: 100, example: 40 }) progress_pct!: number;
  @ApiProperty({ example: 'Collecting group (3 of 22 types)' }) progress_message!: string;
  @ApiPropertyOptional() error_message?: string;
  @ApiPropertyOptional({ format: 'date-time' }) completed_at?: string;
}

/** GET /api/backup/list (spec "Backups"): one page and the total across pages. */
@ApiSchema({ name: 'BackupList' })
export class BackupListDto {
  @ApiProperty({ type: [BackupDto] }) backups!: BackupDto[];
  @ApiProperty({ type: 'integer', description: 'Backups matching the filters, across pages.' })
  total!: number;
  @ApiProperty({ type: BackupStatsDto, nullable: true, description: 'null unless `includeStats=true`.' })
  stats!: BackupStatsDto | null;
}

/** GET /api/backup/:id. */
@ApiSchema({ name: 'BackupResponse' })
export class BackupEnvelopeDto {
  @ApiProperty({ type: BackupDto }) backup!: BackupDto;
}

/** GET /api/backup/active: the team's running backups. */
@ApiSchema({ name: 'ActiveBackups' })
export class ActiveBackupsDto {
  @ApiProperty({ type: [BackupDto] }) active!: BackupDto[];
}

/** POST /api/backup/run: started; poll GET /api/backup/status?backupId=. */
@ApiSchema({ name: 'BackupStarted' })
export class BackupStartedDto implements BackupStarted {
  @ApiProperty({ format: 'uuid', example: '0d6c2a8e-5a5b-4b4e-9f51-6f1c0a8d2f3e' }) backupId!: string;
  @ApiProperty({ description: 'The job id.' }) instanceId!: string;
  @ApiProperty({ enum: ['started'] }) status!: 'started';
}

export function toBackupDto(row: BackupEntity): BackupDto {
  return {
    id: row.id,
    connection_id: row.connectionId,
    connection: toConnectionRefDto(row.connection),
    status: row.status,
    kind: row.kind,
    base_backup_id: row.baseBackupId,
    instance_id: row.jobId,
    progress_pct: row.progressPct,
    progress_message: row.progressMessage,
    error_message: row.errorMessage,
    started_at: row.startedAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    storage_key: row.storageKey,
    resource_counts: row.resourceCounts,
    resource_types: row.resourceTypes,
    size: Number(row.size),
    sha256: row.sha256,
    triggered_by: row.triggeredBy,
    include: row.include,
    include_workflows: row.includeWorkflows,
    requests: row.requests,
  };
}

export function toBackupStatusDto(row: BackupEntity): BackupStatusDto {
  return {
    status: row.status,
    progress_pct: row.progressPct,
    progress_message: row.progressMessage,
    ...(row.errorMessage ? { error_message: row.errorMessage } : {}),
    ...(row.completedAt ? { completed_at: row.completedAt.toISOString() } : {}),
  };
}
