import { Body, Controller, Get, Headers, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
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
import { prefersRespondAsync } from '@app/common/prefer.js';
import { type RestoreDto, type RestoreItemDto, RestoreTypeSummaryDto } from './dto/restore.dto.js';
import { RestorePreviewQuery } from './dto/restore-preview.query.js';
import { RestorePreviewRunDto } from './dto/restore-preview-run.dto.js';
import { RestoreHistoryQuery, RestoreItemsQuery } from './dto/restore-queries.js';
import { RunRestoreDto } from './dto/run-restore.dto.js';
import {
  type RestorePreview,
  type RestorePreviewQueued,
  RestoreService,
  type RestoreStarted,
} from './restore.service.js';

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
  @ApiAcceptedResponse({
    description:
      'Beyond the spec: with `Prefer: respond-async` and a backup over RESTORE_PREVIEW_SYNC_MAX_RECORDS records, `{ previewId, status: "pending" }`; poll the `Location`, GET /api/restore/previews/{previewId}.',
  })
  @ApiConflictResponse({ description: '`backup_not_completed`: the backup is running or failed.' })
  async preview(
    @CurrentActor() actor: Actor,
    @Query() query: RestorePreviewQuery,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<RestorePreview | RestorePreviewQueued> {
    return answerPreview(response, await this.restores.preview(actor, query, preferenceOf(prefer)));
  }

  @Get('previews/:previewId')
  @RequirePermission(Permission.Restore)
  @ApiOkResponse({ type: RestorePreviewRunDto })
  previewRun(
    @CurrentActor() actor: Actor,
    @Param('previewId', ParseUUIDPipe) previewId: string,
  ): Promise<RestorePreviewRunDto> {
    return this.restores.previewRun(actor, previewId);
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
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<RestorePreview | RestorePreviewQueued | RestoreStarted> {
    const result = await this.restores.run(actor, body, preferenceOf(prefer));
    if ('restoreId' in result) {
      response.status(202);
      return result;
    }
    return answerPreview(response, result);
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

function preferenceOf(prefer: string | undefined): { respondAsync: boolean } {
  return { respondAsync: prefersRespondAsync(prefer) };
}

/**
 * The status and headers of a preview's answer: 200 with the preview, or 202 with where to poll
 * a queued one (RFC 7240 §4.1: `Preference-Applied`, and `Vary: Prefer` on both, §2).
 */
function answerPreview<T extends RestorePreview | RestorePreviewQueued>(response: Response, result: T): T {
  response.vary('Prefer');
  if ('previewId' in result) {
    response.status(202);
    response.location(`/api/restore/previews/${result.previewId}`);
    response.set('Preference-Applied', 'respond-async');
  } else {
    response.status(200);
  }
  return result;
}
