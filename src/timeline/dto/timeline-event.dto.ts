import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { Operation } from 'fast-json-patch';
import { JsonPatchOperationDto } from '@app/common/openapi/json-patch-operation.dto.js';
import type { TimelineEvent } from '@app/timeline/resource-history.js';
import { ChangeAttributedDto } from '@app/attribution/dto/change-attributed.dto.js';

/** One change of a resource between two backups (spec "Timeline event"). */
@ApiSchema({ name: 'TimelineEvent' })
export class TimelineEventDto extends ChangeAttributedDto implements TimelineEvent {
  @ApiProperty({ format: 'uuid', description: 'The backup that saw the change.' }) backupId!: string;
  @ApiProperty({ format: 'date-time', description: 'When that backup started.' }) timestamp!: string;
  @ApiProperty({ enum: ['created', 'modified', 'deleted'] }) change!: 'created' | 'modified' | 'deleted';
  @ApiProperty({
    type: [JsonPatchOperationDto],
    description: 'RFC 6902 operations from the previous state (`{}` before creation, after deletion).',
  })
  diff!: Operation[];
}

/** GET /api/resource-timeline: oldest first, over the last `limit` backups. */
@ApiSchema({ name: 'Timeline' })
export class TimelineDto {
  @ApiProperty({ type: [TimelineEventDto] }) events!: TimelineEventDto[];
}
