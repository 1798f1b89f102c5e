import { applyDecorators, Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { type DiffResult, DiffService } from './diff.service.js';
import { DiffRequestDto } from './dto/diff-request.dto.js';
import { DiffResultDto } from './dto/diff-result.dto.js';

/** The answers of both forms of the comparison. */
const DiffResponses = (): MethodDecorator =>
  applyDecorators(
    ApiOkResponse({ type: DiffResultDto }),
    ApiErrorResponses({
      400: 'A missing id, or an unknown resource type or category, named.',
      404: 'A backup the team cannot see.',
      409: {
        codes: ['backup_not_completed', 'snapshots_not_comparable'],
        description: 'A backup is running or failed, or the two were hashed with different volatile fields.',
      },
    }),
  );

/** Spec "Diff": the same comparison from a JSON body or from the query string. */
@ApiTags('diff')
@Controller('api/diff')
export class DiffController {
  constructor(private readonly diffs: DiffService) {}

  @Post()
  @ApiOperation({ summary: 'Compare two backups' })
  @HttpCode(200)
  @RequirePermission(Permission.ViewBackups)
  @DiffResponses()
  compare(@CurrentActor() actor: Actor, @Body() body: DiffRequestDto): Promise<DiffResult> {
    return this.diffs.diff(actor, body);
  }

  @Get()
  @ApiOperation({ summary: 'Compare two backups (query string)' })
  @RequirePermission(Permission.ViewBackups)
  @DiffResponses()
  compareByQuery(@CurrentActor() actor: Actor, @Query() query: DiffRequestDto): Promise<DiffResult> {
    return this.diffs.diff(actor, query);
  }
}
