import type { HeldForApproval } from '@app/approvals/approval-gate.js';
import { HELD_DESCRIPTION } from '@app/approvals/dto/approval.dto.js';
import { Body, Controller, Delete, Get, HttpCode, Logger, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission, StateChangingGet } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { AccountDeletionService } from './account-deletion.service.js';
import { AccountExportService } from './account-export.service.js';
import { DeleteAccountDto } from './dto/delete-account.dto.js';
import { AccountExportDto, DeletionCancelledDto, DeletionScheduledDto } from './dto/account-responses.dto.js';

/** Account data rights (spec "Account data rights", docs/account.md). */
@ApiTags('account')
@Controller('api/account')
export class AccountController {
  private readonly logger = new Logger(AccountController.name);

  constructor(
    private readonly exports: AccountExportService,
    private readonly deletions: AccountDeletionService,
  ) {}

  /**
   * The team's data as one JSON document, streamed (`{ format_version, generated_at, team_id,
   * counts, team, members, ... }`, src/identity/account/export-sections.ts). 429 `export_rate_limited` with
   * `Retry-After` (seconds) within 7 days of the last successful export. Once the body has begun
   * a failure can only cut the connection: the client sees a truncated document, and the export
   * does not count. A cookie-authenticated request another site started is 403
   * (`Sec-Fetch-Site: cross-site`).
   */
  @Get('export')
  @ApiOperation({ summary: "Export the team's data" })
  // It spends the team's weekly export: a link on another site must not.
  @StateChangingGet()
  @RequirePermission(Permission.Export)
  @ApiProduces('application/json')
  @ApiOkResponse({ type: AccountExportDto, description: 'A download (`Content-Disposition: attachment`).' })
  @ApiErrorResponses({
    402: 'The plan allows no more exports this month (`limit: exports_per_month`).',
    429: {
      codes: ['export_rate_limited', 'rate_limited'],
      description: 'One export per 7 days per team (`Retry-After` in seconds), or the per-IP rate limit.',
    },
  })
  async export(@CurrentActor() actor: Actor, @Res() response: Response): Promise<void> {
    const chunks = await this.exports.open(actor);
    response.status(200);
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Disposition', 'attachment; filename="account-export.json"');
    response.setHeader('Cache-Control', 'no-store');
    try {
      await pipeline(Readable.from(chunks, { objectMode: false }), response);
    } catch (error) {
      this.logger.warn(`Account export of team ${actor.teamId} ended early: ${(error as Error).message}`);
    }
  }

  /**
   * Schedules the team's deletion 30 days out (only its `super_admin`, `account erasure`);
   * a request during the grace period answers the pending schedule.
   */
  @Post('delete')
  @ApiOperation({ summary: 'Request account deletion' })
  @HttpCode(202)
  @RequirePermission(Permission.AccountErasure)
  @ApiAcceptedResponse({
    type: DeletionScheduledDto,
    description: `Scheduled, or already pending. ${HELD_DESCRIPTION}`,
  })
  @ApiErrorResponses({ 400: '`confirm` is not the literal text DELETE.' })
  async requestDeletion(
    @CurrentActor() actor: Actor,
    @Body() _body: DeleteAccountDto,
  ): Promise<DeletionScheduledDto | HeldForApproval> {
    const result = await this.deletions.schedule(actor);
    if ('approval' in result) return result;
    return { status: 'scheduled', scheduled_for: result.scheduledFor.toISOString() };
  }

  /** Cancels the pending deletion during the grace period; 404 when none is pending. */
  @Delete('delete')
  @ApiOperation({ summary: 'Cancel account deletion' })
  @RequirePermission(Permission.AccountErasure)
  @ApiOkResponse({ type: DeletionCancelledDto })
  @ApiErrorResponses({ 404: 'No deletion is pending.' })
  async cancelDeletion(@CurrentActor() actor: Actor): Promise<DeletionCancelledDto> {
    await this.deletions.cancel(actor);
    return { status: 'cancelled' };
  }
}
