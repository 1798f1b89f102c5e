import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ConnectionRefDto, toConnectionRefDto } from '@app/connections/dto/connection-ref.dto.js';
import type { BackupEntity, BackupKind, BackupStatus, BackupTrigger } from '@app/backups/backup.entity.js';

/** A backup as the API returns it: the snake_case fields of DESIGN section 4. */
export class BackupDto {
  @ApiProperty() id!: string;
  @ApiProperty() connection_id!: string;
  @ApiProperty({ type: ConnectionRefDto }) connection!: ConnectionRefDto;
  @ApiProperty({ enum: ['running', 'completed', 'failed'] }) status!: BackupStatus;
  @ApiProperty({ enum: ['full', 'incremental'] }) kind!: BackupKind;
  @ApiPropertyOptional({ type: String, nullable: true }) base_backup_id!: string | null;
  @ApiProperty({
    description: 'The job id (`instanceId` of the run response).',
    type: String,
    nullable: true,
  })
  instance_id!: string | null;
  @ApiProperty() progress_pct!: number;
  @ApiProperty() progress_message!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) error_message!: string | null;
  @ApiProperty() started_at!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) completed_at!: string | null;
  @ApiProperty() storage_key!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' } }) resource_counts!: Record<
    string,
    number
  >;
  @ApiProperty({ type: [String] }) resource_types!: string[];
  @ApiProperty({ description: 'Bytes stored.' }) size!: number;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'SHA-256 of the manifest as stored.' })
  sha256!: string | null;
  @ApiProperty({ enum: ['manual', 'schedule', 'pre_restore'] }) triggered_by!: BackupTrigger;
  @ApiProperty({ type: [String], nullable: true }) include!: string[] | null;
  @ApiProperty() include_workflows!: boolean;
  @ApiProperty({ description: 'Requests made to the provider.' }) requests!: number;
}

export class BackupStatsDto {
  @ApiProperty() totalBackups!: number;
  @ApiProperty() completedBackups!: number;
  @ApiProperty() failedBackups!: number;
  @ApiProperty({ description: 'completed / (completed + failed), 0 to 1; 0 when none finished.' })
  successRate!: number;
  @ApiProperty({ description: 'bytes' }) totalSize!: number;
  @ApiProperty({ type: [String] }) resourceTypes!: string[];
}

export class BackupStatusDto {
  @ApiProperty({ enum: ['running', 'completed', 'failed'] }) status!: BackupStatus;
  @ApiProperty() progress_pct!: number;
  @ApiProperty() progress_message!: string;
  @ApiPropertyOptional() error_message?: string;
  @ApiPropertyOptional() completed_at?: string;
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
