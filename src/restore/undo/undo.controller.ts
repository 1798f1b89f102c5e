import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { answerPreferred, prefersRespondAsync } from '@app/common/prefer.js';
import { RestoreService } from '@app/restore/restore.service.js';
import { RestorePreviewQueuedDto } from '@app/restore/dto/restore-preview.dto.js';
import type { RestorePreviewQueued } from '@app/restore/restore-results.js';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { UndoPreviewDto } from './undo-preview.dto.js';
import { UndoPreviewQuery } from './undo-preview.query.js';

/**
 * Beyond the spec (permission `restore`): the dry run of an undo since a clean backup; it is run
 * by POST /api/restore with `mode: 'undo'` (docs/restore.md "Undo since a clean backup").
 * Registered before RestoreController, so `undo` is never read as a restore id.
 */
@ApiTags('restore')
@Controller('api/restore/undo')
export class UndoController {
  constructor(private readonly restores: RestoreService) {}

  @Get()
  @ApiOperation({
    summary: 'Preview an undo since a clean backup (dry run)',
    description:
      "Every change since the backup, against the live org, that POST /api/restore with `mode: undo` and the same filters would reverse: objects added (deleted), changed (put back) and deleted (re-created), each with who made it from the provider's audit log. Changes made by this service itself (a restore) are never listed. Never writes.",
  })
  @RequirePermission(Permission.Restore)
  @ApiHeader({
    name: 'Prefer',
    required: false,
    description:
      'Beyond the spec: `respond-async` (RFC 7240) lets a backup over RESTORE_PREVIEW_SYNC_MAX_RECORDS records be previewed by a job: 202, poll the `Location` (its `undo_result`).',
  })
  @ApiOkResponse({ type: UndoPreviewDto })
  @ApiAcceptedResponse({
    type: RestorePreviewQueuedDto,
    description:
      'With `Prefer: respond-async` and a large backup: queued; poll `Location`, GET /api/restore/previews/{previewId}.',
  })
  @ApiErrorResponses({
    400: 'A missing or invalid field, an unknown resource type, `since` after `until`, or a provider restored by a package.',
    404: 'A backup the team cannot see.',
    409: { codes: ['backup_not_completed'], description: 'The backup is running or failed.' },
    502: { codes: ['provider_error'], description: 'Reading the live org failed.' },
  })
  async preview(
    @CurrentActor() actor: Actor,
    @Query() query: UndoPreviewQuery,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<UndoPreviewDto | RestorePreviewQueued> {
    const result = await this.restores.undoPreview(actor, query, {
      respondAsync: prefersRespondAsync(prefer),
    });
    answerPreferred(response, 'previewId' in result ? `/api/restore/previews/${result.previewId}` : null);
    return result;
  }
}
