import { Body, Controller, Get, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { answerPreferred, prefersRespondAsync } from '@app/common/prefer.js';
import { UuidParam } from '@app/common/uuid-param.decorator.js';
import { ComplianceCheckDto } from './dto/compliance-check.dto.js';
import {
  type ComplianceCheckQueued,
  ComplianceCheckQueuedDto,
  ComplianceCheckRunDto,
} from './dto/compliance-check-run.dto.js';
import { ComplianceReportDto } from './dto/compliance-report.dto.js';
import { ComplianceService } from './compliance.service.js';

/** Spec "Compliance" (permission `compliance`), and beyond it large checks as jobs (docs/compliance.md). */
@ApiTags('compliance')
@Controller('api/compliance')
export class ComplianceController {
  constructor(private readonly compliance: ComplianceService) {}

  @Post('check')
  @ApiOperation({ summary: 'Run a compliance check' })
  @HttpCode(200)
  @RequirePermission(Permission.Compliance)
  @ApiHeader({
    name: 'Prefer',
    required: false,
    description:
      'Beyond the spec: `respond-async` (RFC 7240) lets a backup over COMPLIANCE_CHECK_SYNC_MAX_RECORDS records, not checked before, be checked by a job: 202, poll the `Location`.',
  })
  @ApiOkResponse({ type: ComplianceReportDto })
  @ApiAcceptedResponse({
    type: ComplianceCheckQueuedDto,
    description:
      'Beyond the spec, with `Prefer: respond-async` and a large backup: queued; poll `Location`, GET /api/compliance/checks/{checkId}.',
  })
  @ApiErrorResponses({
    400: 'A missing id, or an unknown framework: the message lists the six.',
    402: 'The plan does not include this framework (`limit: compliance_frameworks`).',
    404: 'A connection or backup the team cannot see.',
    409: {
      codes: ['no_backup', 'backup_not_completed'],
      description: 'The connection has no completed backup, or the backup named is running or failed.',
    },
  })
  async check(
    @CurrentActor() actor: Actor,
    @Body() body: ComplianceCheckDto,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ComplianceReportDto | ComplianceCheckQueued> {
    const result = await this.compliance.checkOrQueue(actor, body, {
      respondAsync: prefersRespondAsync(prefer),
    });
    answerPreferred(response, 'checkId' in result ? `/api/compliance/checks/${result.checkId}` : null);
    return result;
  }

  @Get('checks/:checkId')
  @ApiOperation({ summary: 'Poll a compliance check queued as a job' })
  @RequirePermission(Permission.Compliance)
  @ApiOkResponse({ type: ComplianceCheckRunDto })
  @ApiErrorResponses({
    400: 'An invalid id, named.',
    404: 'A check the team cannot see.',
  })
  checkRun(
    @CurrentActor() actor: Actor,
    @UuidParam('checkId') checkId: string,
  ): Promise<ComplianceCheckRunDto> {
    return this.compliance.checkRun(actor, checkId);
  }
}
