import { Body, Controller, Get, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '@app/common/actor.js';
import { UuidParam } from '@app/common/uuid-param.decorator.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { RestoreDetailDto, RestoreHistoryDto, RestoreTypeSummaryDto } from './dto/restore.dto.js';
import { RestorePreviewDto, RestoreStartedDto } from './dto/restore-preview.dto.js';
import { RestorePreviewQuery } from './dto/restore-preview.query.js';
import { RestoreHistoryQuery, RestoreItemsQuery } from './dto/restore-queries.js';
import { RunRestoreDto } from './dto/run-restore.dto.js';
import { type RestorePreview, RestoreService, type RestoreStarted } from './restore.service.js';

/** A backup the preview or the restore starts from, and what can be wrong with it. */
const BACKUP_ERRORS = {
  400: 'A missing or invalid field, an unknown resource type, or `selective` without `resourceTypes`.',
  404: 'A backup the team cannot see.',
  502: { codes: ['provider_error'], description: 'Reading the live org failed.' },
} as const;

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
  @ApiOperation({ summary: 'Preview a restore (dry run)' })
  @RequirePermission(Permission.Restore)
  @ApiOkResponse({ type: RestorePreviewDto, description: 'The dry run; nothing is written.' })
  @ApiErrorResponses({
    ...BACKUP_ERRORS,
    409: { codes: ['backup_not_completed'], description: 'The backup is running or failed.' },
  })
  preview(@CurrentActor() actor: Actor, @Query() query: RestorePreviewQuery): Promise<RestorePreview> {
    return this.restores.preview(actor, query);
  }

  @Post()
  @ApiOperation({ summary: 'Run a restore (or preview it without mode)' })
  @RequirePermission(Permission.Restore)
  @ApiOkResponse({ type: RestorePreviewDto, description: 'Without `mode`: the dry run; nothing is written.' })
  @ApiAcceptedResponse({
    type: RestoreStartedDto,
    description: 'With `mode`: started; poll GET /api/restore/{restoreId}.',
  })
  @ApiErrorResponses({
    ...BACKUP_ERRORS,
    409: {
      codes: ['restore_in_progress', 'backup_not_completed'],
      description: 'A restore of the connection is running, or the backup is running or failed.',
    },
  })
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
  @ApiOperation({ summary: 'List restores' })
  @RequirePermission(Permission.Restore)
  @ApiOkResponse({ type: RestoreHistoryDto })
  @ApiErrorResponses({ 400: 'An invalid filter or a `limit` past 1000, named.' })
  history(@CurrentActor() actor: Actor, @Query() query: RestoreHistoryQuery): Promise<RestoreHistoryDto> {
    return this.restores.history(actor, query);
  }

  @Get(':restoreId')
  @ApiOperation({ summary: 'Poll a restore and its items' })
  @RequirePermission(Permission.Restore)
  @ApiOkResponse({ type: RestoreDetailDto })
  @ApiErrorResponses({
    400: 'An invalid id or query parameter, named.',
    404: 'A restore the team cannot see.',
  })
  get(
    @CurrentActor() actor: Actor,
    @UuidParam('restoreId') restoreId: string,
    @Query() query: RestoreItemsQuery,
  ): Promise<RestoreDetailDto> {
    return this.restores.get(actor, restoreId, query);
  }
}
