import { Body, Controller, Delete, Get, HttpCode, Logger, Post, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { AccountDeletionService } from './account-deletion.service.js';
import { AccountExportService } from './account-export.service.js';
import { DeleteAccountDto } from './dto/delete-account.dto.js';
import { ExportRateLimitedError } from './export-rate-limited.error.js';

/** Account data rights (spec "Account data rights", issue 27). */
@ApiTags('account')
@Controller('api/account')
export class AccountController {
  private readonly logger = new Logger(AccountController.name);

  constructor(
    private readonly exports: AccountExportService,
    private readonly deletions: AccountDeletionService,
    private readonly plans: PlanLimitsService,
  ) {}

  /**
   * The team's data as one JSON document, streamed (`{ format_version, generated_at, team_id,
   * counts, team, members, ... }`, src/account/export-sections.ts). 429 `export_rate_limited` with
   * `Retry-After` (seconds) within 7 days of the last successful export. Once the body has begun
   * a failure can only cut the connection: the client sees a truncated document, and the export
   * does not count.
   */
  @Get('export')
  @RequirePermission(Permission.Export)
  @ApiProduces('application/json')
  @ApiOkResponse({
    description:
      '{ format_version, generated_at, team_id, counts: { <section>: rows }, team, <section>: row[] }',
  })
  @ApiTooManyRequestsResponse({ description: '`export_rate_limited`, with Retry-After in seconds.' })
  async export(@CurrentActor() actor: Actor, @Res() response: Response): Promise<void> {
    await this.plans.assertCanExport(actor);
    let chunks;
    try {
      chunks = await this.exports.open(actor);
    } catch (error) {
      if (error instanceof ExportRateLimitedError) response.setHeader('Retry-After', error.retryAfterSeconds);
      throw error;
    }
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
  @HttpCode(202)
  @RequirePermission(Permission.AccountErasure)
  @ApiAcceptedResponse({ description: "{ status: 'scheduled', scheduled_for }" })
  async requestDeletion(
    @CurrentActor() actor: Actor,
    @Body() _body: DeleteAccountDto,
  ): Promise<{ status: 'scheduled'; scheduled_for: string }> {
    const { scheduledFor } = await this.deletions.schedule(actor);
    return { status: 'scheduled', scheduled_for: scheduledFor.toISOString() };
  }

  /** Cancels the pending deletion during the grace period; 404 when none is pending. */
  @Delete('delete')
  @RequirePermission(Permission.AccountErasure)
  @ApiOkResponse({ description: "{ status: 'cancelled' }" })
  @ApiNotFoundResponse({ description: 'No deletion is pending.' })
  async cancelDeletion(@CurrentActor() actor: Actor): Promise<{ status: 'cancelled' }> {
    await this.deletions.cancel(actor);
    return { status: 'cancelled' };
  }
}
