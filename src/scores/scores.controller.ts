import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { ResilienceQuery } from './dto/resilience.query.js';
import type { ReadinessDto, ResilienceDto } from './dto/scores.dto.js';
import { ScoresService } from './scores.service.js';

/** Spec "Scores" (both `view backups`). */
@ApiTags('scores')
@Controller('api/scores')
export class ScoresController {
  constructor(private readonly scores: ScoresService) {}

  @Get('resilience')
  @RequirePermission(Permission.ViewBackups)
  @ApiNotFoundResponse({ description: 'A connection the team cannot see.' })
  resilience(@CurrentActor() actor: Actor, @Query() query: ResilienceQuery): Promise<ResilienceDto> {
    return this.scores.resilience(actor, query.connectionId);
  }

  @Get('readiness')
  @RequirePermission(Permission.ViewBackups)
  readiness(@CurrentActor() actor: Actor): Promise<ReadinessDto> {
    return this.scores.readiness(actor);
  }
}
