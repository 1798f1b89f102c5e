import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { AuditActor } from '@app/audit/audit-entry.js';

@ApiSchema({ name: 'AuditActor' })
class AuditActorDto {
  @ApiProperty({ enum: ['user', 'client', 'system', 'schedule'] }) type!: AuditActor['type'];
  @ApiProperty({ type: String, nullable: true, description: 'The user; null for system and schedule.' })
  id!: string | null;
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional() client_id?: string;
}

@ApiSchema({ name: 'AuditTarget' })
class AuditTargetDto {
  @ApiProperty({ example: 'backup' }) type!: string;
  @ApiProperty({ type: String, nullable: true }) id!: string | null;
}

/** An audit event as GET /api/audit-events returns it (DESIGN section 4 "Audit event"). */
@ApiSchema({ name: 'AuditEvent' })
export class AuditEventDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) occurred_at!: string;
  @ApiProperty({ type: AuditActorDto }) actor!: AuditActorDto;
  @ApiProperty({ example: 'backup.failed' }) action!: string;
  @ApiProperty({ type: AuditTargetDto }) target!: AuditTargetDto;
  @ApiProperty({ enum: ['success', 'failure'] }) outcome!: 'success' | 'failure';
  @ApiProperty({ type: String, nullable: true }) ip!: string | null;
  @ApiProperty({ type: String, nullable: true }) request_id!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) details!: Record<string, unknown>;
}

/** GET /api/audit-events: one page, newest first; pass `nextAfter` as `after` for the next. */
@ApiSchema({ name: 'AuditEventPage' })
export class AuditEventPageDto {
  @ApiProperty({ type: [AuditEventDto] }) events!: AuditEventDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Cursor of the next page; null on the last.' })
  nextAfter!: string | null;
}
