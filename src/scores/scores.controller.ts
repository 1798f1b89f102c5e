import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { ResilienceQuery } from './dto/resilience.query.js';
import { ScoreHistoryDto } from './dto/score-history.dto.js';
import { ScoreHistoryQuery } from './dto/score-history.query.js';
import { ReadinessDto, ResilienceDto } from './dto/scores.dto.js';
import { ScoreHistoryService } from './score-history.service.js';
import { ScoresService } from './scores.service.js';

/** Spec "Scores" (all `view backups`); the history is beyond the spec (docs/scores.md "History"). */
@ApiTags('scores')
@Controller('api/scores')
export class ScoresController {
  constructor(
    private readonly scores: ScoresService,
    private readonly history: ScoreHistoryService,
  ) {}

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

  @Get('history')
  @ApiOperation({
    summary: "A connection's resilience and readiness over time",
    description:
      'Beyond the spec: the readings taken once a day and after each completed backup, oldest first, kept for the plan’s retention (400 days at most).',
  })
  @RequirePermission(Permission.ViewBackups)
  @ApiOkResponse({ type: ScoreHistoryDto })
  @ApiErrorResponses({
    400: '`connectionId` missing or not a uuid, or `days` not an integer from 1 to 365.',
    404: 'A connection the team cannot see.',
  })
  historyOf(@CurrentActor() actor: Actor, @Query() query: ScoreHistoryQuery): Promise<ScoreHistoryDto> {
    return this.history.pointsOf(actor, query.connectionId, query.days);
  }
}
