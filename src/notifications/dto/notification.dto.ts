import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  NOTIFICATION_TYPES,
  SEVERITIES,
  type NotificationSeverity,
  type NotificationType,
} from '@app/notifications/notification-types.js';
import { OkResponseDto } from '@app/common/openapi/ok-response.dto.js';

/** A notification (DESIGN section 4 "Notification"). */
@ApiSchema({ name: 'Notification' })
export class NotificationDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: NOTIFICATION_TYPES }) type!: NotificationType;
  @ApiProperty({ enum: SEVERITIES }) severity!: NotificationSeverity;
  @ApiProperty({ example: 'Backup failed' }) title!: string;
  @ApiProperty() message!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Ids of what it is about (connectionId, backupId...), by type.',
    example: { connectionId: '0d6c2a8e-5a5b-4b4e-9f51-6f1c0a8d2f3e' },
  })
  data!: Record<string, unknown>;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) read_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/**
 * A member's delivery of one type. A default shows as the rule it follows: `in_app` `"first"`
 * (backup.completed: the connection's first only), `email` `"critical"` (drift.detected: critical only).
 */
@ApiSchema({ name: 'NotificationPreference' })
export class NotificationPreferenceDto {
  @ApiProperty({ enum: NOTIFICATION_TYPES }) type!: NotificationType;
  @ApiProperty({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['first'] }], example: 'first' })
  in_app!: boolean | 'first';
  @ApiProperty({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['critical'] }] }) email!:
    boolean | 'critical';
  @ApiProperty({ description: 'true while the member saved no choice for the type.' }) default!: boolean;
}

/** GET /api/notifications (spec "Notifications"): newest first. */
@ApiSchema({ name: 'NotificationList' })
export class NotificationListDto {
  @ApiProperty({ type: [NotificationDto] }) notifications!: NotificationDto[];
}

/** POST /api/notifications/read. */
@ApiSchema({ name: 'MarkedRead' })
export class MarkedReadDto extends OkResponseDto {
  @ApiProperty({ type: 'integer', description: 'Notifications that were unread and now are read.' })
  marked!: number;
}

/** GET and PATCH /api/notifications/preferences: one entry per type. */
@ApiSchema({ name: 'NotificationPreferences' })
export class NotificationPreferencesDto {
  @ApiProperty({ type: [NotificationPreferenceDto] }) preferences!: NotificationPreferenceDto[];
}
