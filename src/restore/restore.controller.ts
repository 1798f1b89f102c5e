import { Body, Controller, Get, Headers, Post, Query, Res, StreamableFile } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { SignedReportQuery } from '@app/common/downloads/report-url.js';
import type { Response } from 'express';
import type { Actor } from '@app/common/actor.js';
import { UuidParam } from '@app/common/uuid-param.decorator.js';
import { CurrentActor, Public, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { answerPreferred, prefersRespondAsync } from '@app/common/prefer.js';
import { RestoreDetailDto, RestoreHistoryDto, RestoreTypeSummaryDto } from './dto/restore.dto.js';
import { RestoreAcceptedDto, RestorePreviewDto, RestorePreviewQueuedDto } from './dto/restore-preview.dto.js';
import { RestorePreviewQuery } from './dto/restore-preview.query.js';
import { RestorePreviewRunDto } from './dto/restore-preview-run.dto.js';
import { RestoreHistoryQuery, RestoreItemsQuery } from './dto/restore-queries.js';
import { RunRestoreDto } from './dto/run-restore.dto.js';
import type { RestorePreview, RestorePreviewQueued, RestoreStarted } from './restore-results.js';
import { RestoreService } from './restore.service.js';
import type { HeldForApproval } from '@app/approvals/approval-gate.js';
import { HELD_DESCRIPTION } from '@app/approvals/dto/approval.dto.js';

/** A backup the preview or the restore starts from, and what can be wrong with it. */
const BACKUP_ERRORS = {
  400: 'A missing or invalid field, an unknown resource type, or `selective` without `resourceTypes`.',
  404: 'A backup the team cannot see.',
  502: { codes: ['provider_error'], description: 'Reading the live org failed.' },
} as const;

/** The `Prefer` header a client that can poll sends (RFC 7240), documented on both dry runs. */
const PREFER_HEADER = {
  name: 'Prefer',
  required: false,
  description:
    'Beyond the spec: `respond-async` (RFC 7240) lets a backup over RESTORE_PREVIEW_SYNC_MAX_RECORDS records be previewed by a job: 202, poll the `Location`.',
};

/** The 202 of a dry run queued as a job. */
const PREVIEW_QUEUED = {
  type: RestorePreviewQueuedDto,
  description:
    'Beyond the spec, with `Prefer: respond-async` and a large backup: queued; poll `Location`, GET /api/restore/previews/{previewId}.',
};

/**
 * Spec "Restore" (permission `restore`): the dry-run preview, execution, and beyond the spec the
 * polling and history of DESIGN section 4, and dry runs of large backups as jobs
 * (docs/restore.md). Static paths come before `:restoreId`.
 */
@ApiTags('restore')
@ApiExtraModels(RestoreTypeSummaryDto)
@Controller('api/restore')
export class RestoreController {
  constructor(private readonly restores: RestoreService) {}

  @Get()
  @ApiOperation({ summary: 'Preview a restore (dry run)' })
  @RequirePermission(Permission.Restore)
  @ApiHeader(PREFER_HEADER)
  @ApiOkResponse({ type: RestorePreviewDto, description: 'The dry run; nothing is written.' })
  @ApiAcceptedResponse(PREVIEW_QUEUED)
  @ApiErrorResponses({
    ...BACKUP_ERRORS,
    409: { codes: ['backup_not_completed'], description: 'The backup is running or failed.' },
  })
  async preview(
    @CurrentActor() actor: Actor,
    @Query() query: RestorePreviewQuery,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<RestorePreview | RestorePreviewQueued> {
    return answerPreview(response, await this.restores.preview(actor, query, preferenceOf(prefer)));
  }

  @Post()
  @ApiOperation({ summary: 'Run a restore (or preview it without mode)' })
  @RequirePermission(Permission.Restore)
  @ApiHeader(PREFER_HEADER)
  @ApiOkResponse({ type: RestorePreviewDto, description: 'Without `mode`: the dry run; nothing is written.' })
  @ApiAcceptedResponse({
    type: RestoreAcceptedDto,
    description: `With \`mode\`: started; poll GET /api/restore/{restoreId}. ${PREVIEW_QUEUED.description} ${HELD_DESCRIPTION}`,
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
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<RestorePreview | RestorePreviewQueued | RestoreStarted | HeldForApproval> {
    const result = await this.restores.run(actor, body, preferenceOf(prefer));
    if ('restoreId' in result || 'approval' in result) {
      response.status(202);
      return result;
    }
    return answerPreview(response, result);
  }

  @Get('history')
  @ApiOperation({ summary: 'List restores' })
  @RequirePermission(Permission.Restore)
  @ApiOkResponse({ type: RestoreHistoryDto })
  @ApiErrorResponses({ 400: 'An invalid filter or a `limit` past 1000, named.' })
  history(@CurrentActor() actor: Actor, @Query() query: RestoreHistoryQuery): Promise<RestoreHistoryDto> {
    return this.restores.history(actor, query);
  }

  @Get('previews/:previewId')
  @ApiOperation({ summary: 'Poll a dry run queued as a job' })
  @RequirePermission(Permission.Restore)
  @ApiOkResponse({ type: RestorePreviewRunDto })
  @ApiErrorResponses({
    400: 'An invalid id, named.',
    404: 'A preview the team cannot see.',
  })
  previewRun(
    @CurrentActor() actor: Actor,
    @UuidParam('previewId') previewId: string,
  ): Promise<RestorePreviewRunDto> {
    return this.restores.previewRun(actor, previewId);
  }

  @Public()
  @Get('packages/:restoreId')
  @ApiOperation({ summary: 'Download a re-import package (signed URL)' })
  @ApiProduces('application/zip')
  @ApiQuery({ name: 'team', description: 'Signed: the team the restore belongs to.' })
  @ApiQuery({ name: 'expires', description: 'Signed: Unix time (seconds) the link stops working.' })
  @ApiQuery({ name: 'kid', description: 'The signing key id.' })
  @ApiQuery({ name: 'sig', description: 'HMAC-SHA256 of the above and the restore id, base64url.' })
  @ApiOkResponse({
    description: 'The ZIP: `restore.folder`, `tables/*.csv`, `RUNBOOK.md` (docs/okta-workflows.md).',
    content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrorResponses({
    400: '`restoreId` is not a uuid.',
    403: 'An expired, altered or other package’s signature.',
    404: 'The package is gone (account deletion).',
  })
  async downloadPackage(
    @UuidParam('restoreId') restoreId: string,
    @Query() query: SignedReportQuery,
  ): Promise<StreamableFile> {
    const { body, filename } = await this.restores.downloadPackage(restoreId, query);
    return new StreamableFile(body, {
      type: 'application/zip',
      disposition: `attachment; filename="${filename}"`,
    });
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

function preferenceOf(prefer: string | undefined): { respondAsync: boolean } {
  return { respondAsync: prefersRespondAsync(prefer) };
}

/** The status and headers of a preview's answer: 200 with the preview, or 202 with where to poll a queued one. */
function answerPreview<T extends RestorePreview | RestorePreviewQueued>(response: Response, result: T): T {
  answerPreferred(response, 'previewId' in result ? `/api/restore/previews/${result.previewId}` : null);
  return result;
}
