import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { TimelineQuery } from './dto/timeline.query.js';
import { TimelineDto } from './dto/timeline-event.dto.js';
import { TimelineService } from './timeline.service.js';

/** Spec "Resource timeline". */
@ApiTags('timeline')
@Controller('api/resource-timeline')
export class TimelineController {
  constructor(private readonly timelines: TimelineService) {}

  @Get()
  @ApiOperation({ summary: "A resource's change timeline" })
  @RequirePermission(Permission.ViewBackups)
  @ApiOkResponse({ type: TimelineDto })
  @ApiErrorResponses({
    400: 'A missing or invalid parameter, or an unknown resource type, named.',
    404: 'A connection the team cannot see.',
  })
  timeline(@CurrentActor() actor: Actor, @Query() query: TimelineQuery): Promise<TimelineDto> {
    return this.timelines.timeline(actor, query);
  }
}
