import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { ChangeActor } from '@libs/providers/provider-connector.js';
import type { AttributionStatus, ChangeAttributed } from '@libs/diff/change-attribution.js';

const STATUSES: AttributionStatus[] = ['recorded', 'no_record', 'not_available'];

/** Who made a change, as the provider's audit log names them. */
@ApiSchema({ name: 'ChangeActor' })
export class ChangeActorDto implements ChangeActor {
  @ApiProperty({ example: '00u1a2b3c4d5e6f7g8h9', description: "The actor's id in the provider." })
  id!: string;
  @ApiProperty({ example: 'Jane Doe' }) displayName!: string;
  @ApiProperty({
    enum: ['user', 'app', 'system'],
    description: 'A person, an application (a service app, an API client) or the provider itself.',
  })
  type!: ChangeActor['type'];
  @ApiPropertyOptional({
    example: 'jane.doe@acme.example',
    description: 'Sign-in name, where the log gives it.',
  })
  alternateId?: string;
  @ApiPropertyOptional({
    example: '203.0.113.7',
    description: "The client's IP address, where the log gives it.",
  })
  ipAddress?: string;
  @ApiPropertyOptional({ description: "The client's user agent, where the log gives it." })
  userAgent?: string;
}

/**
 * Beyond the spec: who made a change and when, from the provider's audit log as each backup kept
 * it (docs/diff.md "Who changed it").
 */
export class ChangeAttributedDto implements ChangeAttributed {
  @ApiProperty({
    type: ChangeActorDto,
    nullable: true,
    description:
      'The last actor the audit log names for this object in the period; null when it names none (see `attribution`).',
  })
  changedBy!: ChangeActorDto | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When that actor changed it; null with `changedBy`.',
  })
  changedAt!: string | null;
  @ApiPropertyOptional({
    example: 'group.lifecycle.delete',
    description: "The audit log's event type of that change.",
  })
  eventType?: string;
  @ApiPropertyOptional({ description: 'The change was made by this service itself (a restore).' })
  byThisService?: boolean;
  @ApiProperty({
    enum: STATUSES,
    description:
      '`recorded`: `changedBy` names who; `no_record`: the audit log held nothing about this object for the period; `not_available`: the provider has no audit log this service reads, or a backup of the period could not read it (`attributionReason` says why).',
  })
  attribution!: AttributionStatus;
  @ApiPropertyOptional({
    example: 'Microsoft Graph refused: AuditLog.Read.All is not granted',
    description:
      'With `not_available`: why, when known (the permission the connection lacks to read the audit log, or that the provider has none).',
  })
  attributionReason?: string;
}
