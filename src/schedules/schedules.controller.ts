import { Body, Controller, Get, Param, ParseUUIDPipe, Patch } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import type { ScheduleDto } from './dto/schedule.dto.js';
import { UpdateScheduleDto } from './dto/update-schedule.dto.js';
import { SchedulesService } from './schedules.service.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';

/** Spec "Connections": a connection's backup schedule, under `manage connections` like every connection route. */
@ApiTags('connections')
@Controller('api/connections/:id/schedule')
@RequirePermission(Permission.ManageConnections)
export class SchedulesController {
  constructor(
    private readonly schedules: SchedulesService,
    private readonly plans: PlanLimitsService,
  ) {}

  @Get()
  get(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<ScheduleDto> {
    return this.schedules.get(actor, id);
  }

  @Patch()
  async update(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: UpdateScheduleDto,
  ): Promise<{ schedule: ScheduleDto }> {
    if (body.frequency) await this.plans.assertScheduleFrequency(actor, body.frequency);
    return { schedule: await this.schedules.update(actor, id, body) };
  }
}
