import { Controller, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { RestoreDrillDto } from './dto/restore-drill.dto.js';
import { type RestoreDrillStarted, RestoreDrillsService } from './restore-drills.service.js';

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
    description: '`{ drillId, status: "started", poll }`; poll GET /api/restore-drills/{drillId}.',
  })
  @ApiNotFoundResponse({ description: 'A backup the team cannot see.' })
  @ApiConflictResponse({ description: '`backup_not_completed`: the backup is running or failed.' })
  verify(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<RestoreDrillStarted> {
    return this.drills.start(actor, id);
  }

  @Get('restore-drills/:drillId')
  @RequirePermission(Permission.ViewBackups)
  @ApiOkResponse({
    type: RestoreDrillDto,
    description: '`{ drill }`: `outcome` is `passed` or `failed` once over.',
  })
  @ApiNotFoundResponse({ description: 'A drill the team cannot see.' })
  async get(
    @CurrentActor() actor: Actor,
    @Param('drillId', ParseUUIDPipe) drillId: string,
  ): Promise<{ drill: RestoreDrillDto }> {
    return { drill: await this.drills.get(actor, drillId) };
  }
}
