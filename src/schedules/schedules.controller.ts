import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { UuidParam } from '@app/common/uuid-param.decorator.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { ScheduleDto, ScheduleEnvelopeDto } from './dto/schedule.dto.js';
import { UpdateScheduleDto } from './dto/update-schedule.dto.js';
import { SchedulesService } from './schedules.service.js';

/** Spec "Connections": a connection's backup schedule, under `manage connections` like every connection route. */
@ApiTags('connections')
@Controller('api/connections/:id/schedule')
@RequirePermission(Permission.ManageConnections)
export class SchedulesController {
  constructor(private readonly schedules: SchedulesService) {}

  @Get()
  @ApiOperation({ summary: "Get a connection's backup schedule" })
  @ApiOkResponse({ type: ScheduleDto, description: 'The schedule itself, not wrapped (spec "Connections").' })
  @ApiErrorResponses({ 400: '`id` is not a uuid.', 404: 'A connection the team cannot see.' })
  get(@CurrentActor() actor: Actor, @UuidParam('id') id: string): Promise<ScheduleDto> {
    return this.schedules.get(actor, id);
  }

  @Patch()
  @ApiOperation({ summary: "Update a connection's backup schedule" })
  @ApiOkResponse({ type: ScheduleEnvelopeDto })
  @ApiErrorResponses({
    400: 'A field out of its bounds, an unknown time zone, or a day that does not fit the frequency.',
    402: 'The plan does not allow this frequency (`limit: schedule_frequencies`), or a retention above its own (`limit: retention_days`, `retention_count`).',
    404: 'A connection the team cannot see.',
  })
  async update(
    @CurrentActor() actor: Actor,
    @UuidParam('id') id: string,
    @Body() body: UpdateScheduleDto,
  ): Promise<ScheduleEnvelopeDto> {
    return { schedule: await this.schedules.update(actor, id, body) };
  }
}
