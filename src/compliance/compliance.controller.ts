import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { ComplianceCheckDto } from './dto/compliance-check.dto.js';
import type { ComplianceReportDto } from './dto/compliance-report.dto.js';
import { ComplianceService } from './compliance.service.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';

/** Spec "Compliance" (permission `compliance`). */
@ApiTags('compliance')
@Controller('api/compliance')
export class ComplianceController {
  constructor(
    private readonly compliance: ComplianceService,
    private readonly plans: PlanLimitsService,
  ) {}

  @Post('check')
  @HttpCode(200)
  @RequirePermission(Permission.Compliance)
  @ApiOkResponse({
    description:
      '`{ score, findings, generatedAt }`, with `backupId`, `framework_version`, `catalogue_version`.',
  })
  @ApiBadRequestResponse({ description: 'An unknown framework: the message lists the six.' })
  @ApiNotFoundResponse({ description: 'A connection or backup the team cannot see.' })
  @ApiConflictResponse({
    description: '`no_backup`: the connection has no completed backup; `backup_not_completed`.',
  })
  async check(@CurrentActor() actor: Actor, @Body() body: ComplianceCheckDto): Promise<ComplianceReportDto> {
    await this.plans.assertComplianceFramework(actor, body.framework);
    return this.compliance.check(actor, body);
  }
}
