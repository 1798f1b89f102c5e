import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, Public, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { ReportRequestDto } from './dto/report-request.dto.js';
import type { SignedReportQuery } from './report-url.js';
import { ReportsService } from './reports.service.js';

/** Spec "Export": PDF reports (permission `export`) and their signed downloads (public, signature checked). */
@ApiTags('export')
@Controller('api/export')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Post('report')
  @HttpCode(200)
  @RequirePermission(Permission.Export)
  @ApiOkResponse({ description: '`{ url, expiresAt }`: a signed download URL of the PDF (REPORT_URL_TTL).' })
  @ApiBadRequestResponse({ description: 'A missing or invalid field, named.' })
  @ApiNotFoundResponse({ description: 'A backup or connection the team cannot see.' })
  @ApiServiceUnavailableResponse({
    description: '`report_unavailable`: Chromium is missing or did not render in time.',
  })
  create(
    @CurrentActor() actor: Actor,
    @Body() body: ReportRequestDto,
  ): Promise<{ url: string; expiresAt: string }> {
    return this.reports.create(actor, body);
  }

  @Public()
  @Get('reports/:id')
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'The PDF, with a Content-Disposition filename.' })
  @ApiForbiddenResponse({ description: 'An expired, altered or other report signature.' })
  async download(
    @Param('id', ParseUUIDPipe) id: string,
    @Query() query: SignedReportQuery,
  ): Promise<StreamableFile> {
    const { body, filename } = await this.reports.download(id, query);
    return new StreamableFile(body, {
      type: 'application/pdf',
      disposition: `attachment; filename="${filename}"`,
    });
  }
}
