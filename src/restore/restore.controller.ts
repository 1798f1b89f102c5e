import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { type RestoreDto, type RestoreItemDto, RestoreTypeSummaryDto } from './dto/restore.dto.js';
import { RestorePreviewQuery } from './dto/restore-preview.query.js';
import { RestoreHistoryQuery, RestoreItemsQuery } from './dto/restore-queries.js';
import { RunRestoreDto } from './dto/run-restore.dto.js';
import { type RestorePreview, RestoreService, type RestoreStarted } from './restore.service.js';

/**
 * Spec "Restore" (permission `restore`): the dry-run preview, execution, and beyond the spec the
 * polling and history of DESIGN section 4. Static paths come before `:restoreId`.
 */
@ApiTags('restore')
@ApiExtraModels(RestoreTypeSummaryDto)
@Controller('api/restore')
export class RestoreController {
  constructor(private readonly restores: RestoreService) {}

  @Get()
  @RequirePermission(Permission.Restore)
  @ApiConflictResponse({ description: '`backup_not_completed`: the backup is running or failed.' })
  preview(@CurrentActor() actor: Actor, @Query() query: RestorePreviewQuery): Promise<RestorePreview> {
    return this.restores.preview(actor, query);
  }

  @Post()
  @RequirePermission(Permission.Restore)
  @ApiOkResponse({ description: 'Without `mode`: the dry-run preview; nothing is written.' })
  @ApiAcceptedResponse({
    description: 'With `mode`: `{ restoreId, status: "started" }`; poll GET /api/restore/{restoreId}.',
  })
  @ApiConflictResponse({ description: '`restore_in_progress`, or `backup_not_completed`.' })
  async run(
    @CurrentActor() actor: Actor,
    @Body() body: RunRestoreDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<RestorePreview | RestoreStarted> {
    const result = await this.restores.run(actor, body);
    response.status('restoreId' in result ? 202 : 200);
    return result;
  }

  @Get('history')
  @RequirePermission(Permission.Restore)
  history(
    @CurrentActor() actor: Actor,
    @Query() query: RestoreHistoryQuery,
  ): Promise<{ restores: RestoreDto[]; total: number }> {
    return this.restores.history(actor, query);
  }

  @Get(':restoreId')
  @RequirePermission(Permission.Restore)
  get(
    @CurrentActor() actor: Actor,
    @Param('restoreId', ParseUUIDPipe) restoreId: string,
    @Query() query: RestoreItemsQuery,
  ): Promise<{ restore: RestoreDto; items: RestoreItemDto[]; items_total: number }> {
    return this.restores.get(actor, restoreId, query);
  }
}
