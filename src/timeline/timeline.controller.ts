import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { TimelineQuery } from './dto/timeline.query.js';
import type { TimelineEvent } from './resource-history.js';
import { TimelineService } from './timeline.service.js';

/** Spec "Resource timeline". */
@ApiTags('timeline')
@Controller('api/resource-timeline')
export class TimelineController {
  constructor(private readonly timelines: TimelineService) {}

  @Get()
  @RequirePermission(Permission.ViewBackups)
  timeline(
    @CurrentActor() actor: Actor,
    @Query() query: TimelineQuery,
  ): Promise<{ events: TimelineEvent[] }> {
    return this.timelines.timeline(actor, query);
  }
}
