import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { ComplianceCheckDto } from './dto/compliance-check.dto.js';
import { ComplianceReportDto } from './dto/compliance-report.dto.js';
import { ComplianceService } from './compliance.service.js';

/** Spec "Compliance" (permission `compliance`). */
@ApiTags('compliance')
@Controller('api/compliance')
export class ComplianceController {
  constructor(private readonly compliance: ComplianceService) {}

  @Post('check')
  @ApiOperation({ summary: 'Run a compliance check' })
  @HttpCode(200)
  @RequirePermission(Permission.Compliance)
  @ApiOkResponse({ type: ComplianceReportDto })
  @ApiErrorResponses({
    400: 'A missing id, or an unknown framework: the message lists the six.',
    402: 'The plan does not include this framework (`limit: compliance_frameworks`).',
    404: 'A connection or backup the team cannot see.',
    409: {
      codes: ['no_backup', 'backup_not_completed'],
      description: 'The connection has no completed backup, or the backup named is running or failed.',
    },
  })
  check(@CurrentActor() actor: Actor, @Body() body: ComplianceCheckDto): Promise<ComplianceReportDto> {
    return this.compliance.check(actor, body);
  }
}
