import { Body, Controller, Get, Header, HttpCode, Post, Query, StreamableFile } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiProperty,
  ApiQuery,
  ApiSchema,
  ApiTags,
} from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { UuidParam } from '@app/common/uuid-param.decorator.js';
import { CurrentActor, Public, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { ReportRequestDto } from './dto/report-request.dto.js';
import type { SignedReportQuery } from '@app/common/downloads/report-url.js';
import { PRIVATE_DOWNLOAD_CACHE_CONTROL } from './private-download.js';
import { ReportsService } from './reports.service.js';

/** POST /api/export/report: where to download the PDF, until when. */
@ApiSchema({ name: 'ReportLink' })
class ReportLinkDto {
  @ApiProperty({
    format: 'uri',
    description: 'Signed; needs no bearer token.',
    example:
      'https://backup.example.com/api/export/reports/0d6c2a8e-5a5b-4b4e-9f51-6f1c0a8d2f3e?team=...&expires=1790000000&kid=k1&sig=...',
  })
  url!: string;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
}

/** Spec "Export": PDF reports (permission `export`) and their signed downloads (public, signature checked). */
@ApiTags('export')
@Controller('api/export')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Post('report')
  @ApiOperation({ summary: 'Generate a PDF report' })
  @HttpCode(200)
  @RequirePermission(Permission.Export)
  @ApiOkResponse({ type: ReportLinkDto, description: 'A signed download URL of the PDF (REPORT_URL_TTL).' })
  @ApiErrorResponses({
    400: 'A missing or invalid field, named.',
    402: 'A compliance report of a framework the plan does not include (`limit: compliance_frameworks`), as POST /api/compliance/check.',
    404: 'A backup or connection the team cannot see.',
    409: { codes: ['backup_not_completed'], description: 'The backup is running or failed.' },
    503: { codes: ['report_unavailable'], description: 'Chromium is missing or did not render in time.' },
  })
  create(@CurrentActor() actor: Actor, @Body() body: ReportRequestDto): Promise<ReportLinkDto> {
    return this.reports.create(actor, body);
  }

  @Public()
  @Get('reports/:id')
  @ApiOperation({ summary: 'Download a report (signed URL)' })
  @Header('Cache-Control', PRIVATE_DOWNLOAD_CACHE_CONTROL)
  @ApiProduces('application/pdf')
  @ApiQuery({ name: 'team', description: 'Signed: the team the report belongs to.' })
  @ApiQuery({ name: 'expires', description: 'Signed: Unix time (seconds) the link stops working.' })
  @ApiQuery({ name: 'kid', description: 'The signing key id.' })
  @ApiQuery({ name: 'sig', description: 'HMAC-SHA256 of the above and the report id, base64url.' })
  @ApiOkResponse({
    description: 'The PDF, with a Content-Disposition filename.',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrorResponses({
    400: '`id` is not a uuid.',
    403: 'An expired, altered or other report’s signature.',
    404: 'The report is gone (retention or account deletion).',
  })
  async download(@UuidParam('id') id: string, @Query() query: SignedReportQuery): Promise<StreamableFile> {
    const { body, filename } = await this.reports.download(id, query);
    return new StreamableFile(body, {
      type: 'application/pdf',
      disposition: `attachment; filename="${filename}"`,
    });
  }
}
