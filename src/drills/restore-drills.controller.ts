import { Controller, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { RestoreDrillEnvelopeDto, RestoreDrillStartedDto } from './dto/restore-drill.dto.js';
import { RestoreDrillsService } from './restore-drills.service.js';

/**
 * Restore drills, beyond the spec (issue 28): verify a backup's snapshot end to end
 * (`run backups`) and poll the drill (`view backups`).
 */
@ApiTags('backups')
@Controller('api')
export class RestoreDrillsController {
  constructor(private readonly drills: RestoreDrillsService) {}

  @Post('backup/:id/verify')
  @HttpCode(202)
  @RequirePermission(Permission.RunBackups)
  @ApiAcceptedResponse({
    type: RestoreDrillStartedDto,
    description: 'Queued; poll GET /api/restore-drills/{drillId}.',
  })
  @ApiBadRequestResponse({ description: '`id` is not a uuid.' })
  @ApiNotFoundResponse({ description: 'A backup the team cannot see.' })
  @ApiConflictResponse({ description: '`backup_not_completed`: the backup is running or failed.' })
  verify(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
  ): Promise<RestoreDrillStartedDto> {
    return this.drills.start(actor, id);
  }

  @Get('restore-drills/:drillId')
  @RequirePermission(Permission.ViewBackups)
  @ApiOkResponse({
    type: RestoreDrillEnvelopeDto,
    description: '`outcome` is `passed` or `failed` once the drill is over.',
  })
  @ApiBadRequestResponse({ description: '`drillId` is not a uuid.' })
  @ApiNotFoundResponse({ description: 'A drill the team cannot see.' })
  async get(
    @CurrentActor() actor: Actor,
    @Param('drillId', ParseUUIDPipe) drillId: string,
  ): Promise<RestoreDrillEnvelopeDto> {
    return { drill: await this.drills.get(actor, drillId) };
  }
}
