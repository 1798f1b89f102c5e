import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ConnectionRefDto, toConnectionRefDto } from '@app/connections/dto/connection-ref.dto.js';
import { SandboxDrillReportDto } from '@app/restore/cross-org/dto/sandbox-drill-report.dto.js';
import type { SandboxDrillReport } from '@app/restore/cross-org/sandbox-drill-report.js';
import type {
  RestoreDrillEntity,
  RestoreDrillResult,
  RestoreDrillStatus,
  RestoreDrillTrigger,
} from '@app/drills/restore-drill.entity.js';

export class RestoreDrillResultDto {
  @ApiProperty({ description: 'Resource types read (one part each).' }) parts!: number;
  @ApiProperty({ description: 'Records decrypted, parsed and matched with their index entry.' })
  records!: number;
  @ApiProperty({ description: 'Stored bytes read.' }) bytes!: number;
  @ApiProperty({ description: 'Milliseconds the read took.' }) durationMs!: number;
}

/** A restore drill as the API returns it: snake_case like Backup (DESIGN section 4). */
export class RestoreDrillDto {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['verification'], description: 'What the drill did.' }) kind!: 'verification';
  @ApiProperty() connection_id!: string;
  @ApiProperty({ type: ConnectionRefDto }) connection!: ConnectionRefDto;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'null once the backup was deleted.' })
  backup_id!: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'SHA-256 of the manifest recorded when the backup was written.',
  })
  backup_sha256!: string | null;
  @ApiProperty({ enum: ['manual', 'schedule'] }) triggered_by!: RestoreDrillTrigger;
  @ApiProperty({ enum: ['pending', 'running', 'completed', 'failed'] }) status!: RestoreDrillStatus;
  @ApiPropertyOptional({
    enum: ['passed', 'failed'],
    nullable: true,
    description: 'null while it runs; `failed` for any altered, missing or unreadable byte.',
  })
  outcome!: 'passed' | 'failed' | null;
  @ApiProperty() progress_pct!: number;
  @ApiProperty() progress_message!: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'What failed, when it failed.' })
  error_message!: string | null;
  @ApiPropertyOptional({ type: RestoreDrillResultDto, nullable: true }) result!: RestoreDrillResult | null;
  @ApiProperty() created_at!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) started_at!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) completed_at!: string | null;
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'A sandbox drill: the connection the backup is restored into.',
  })
  target_connection_id?: string | null;
  @ApiPropertyOptional({
    type: SandboxDrillReportDto,
    nullable: true,
    description: 'A sandbox drill, once over: what it restored and what still differs.',
  })
  sandbox?: SandboxDrillReport | null;
}

/** Response of GET /api/restore-drills/{drillId}. */
export class RestoreDrillEnvelopeDto {
  @ApiProperty({ type: RestoreDrillDto }) drill!: RestoreDrillDto;
}

/** Response of POST /api/backup/{id}/verify: the drill queued, and where to poll it. */
export class RestoreDrillStartedDto {
  @ApiProperty({ format: 'uuid', example: '2f3e6f1c-0a8d-4b4e-9f51-5a5b0d6c2a8e' }) drillId!: string;
  @ApiProperty({ enum: ['started'] }) status!: 'started';
  @ApiProperty({ description: 'The path to poll: GET /api/restore-drills/{drillId}.' }) poll!: string;
}

/** The API view of a drill row loaded with its connection. */
export function toRestoreDrillDto(row: RestoreDrillEntity): RestoreDrillDto {
  return {
    id: row.id,
    kind: 'verification',
    connection_id: row.connectionId,
    connection: toConnectionRefDto(row.connection),
    backup_id: row.backupId,
    backup_sha256: row.backupSha256,
    triggered_by: row.triggeredBy,
    status: row.status,
    outcome: row.status === 'completed' ? 'passed' : row.status === 'failed' ? 'failed' : null,
    progress_pct: row.progressPct,
    progress_message: row.progressMessage,
    error_message: row.errorMessage,
    result: row.result,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    completed_at: row.completedAt?.toISOString() ?? null,
    ...(row.mapping !== null && { target_connection_id: row.targetConnectionId, sandbox: row.sandbox }),
  };
}
