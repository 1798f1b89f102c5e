import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { ResilienceQuery } from './dto/resilience.query.js';
import { ReadinessDto, ResilienceDto } from './dto/scores.dto.js';
import { ScoresService } from './scores.service.js';

/** Spec "Scores" (both `view backups`). */
@ApiTags('scores')
@Controller('api/scores')
export class ScoresController {
  constructor(private readonly scores: ScoresService) {}

  @Get('resilience')
  @ApiOperation({ summary: "A connection's resilience score" })
  @RequirePermission(Permission.ViewBackups)
  @ApiOkResponse({ type: ResilienceDto })
  @ApiErrorResponses({
    400: '`connectionId` missing or not a uuid.',
    404: 'A connection the team cannot see.',
  })
  resilience(@CurrentActor() actor: Actor, @Query() query: ResilienceQuery): Promise<ResilienceDto> {
    return this.scores.resilience(actor, query.connectionId);
  }

  @Get('readiness')
  @ApiOperation({ summary: "The team's restore-readiness score" })
  @RequirePermission(Permission.ViewBackups)
  @ApiOkResponse({ type: ReadinessDto })
  readiness(@CurrentActor() actor: Actor): Promise<ReadinessDto> {
    return this.scores.readiness(actor);
  }
}
