import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { type DiffResult, DiffService } from './diff.service.js';
import { DiffRequestDto } from './dto/diff-request.dto.js';

/** Spec "Diff": the same comparison from a JSON body or from the query string. */
@ApiTags('diff')
@Controller('api/diff')
export class DiffController {
  constructor(private readonly diffs: DiffService) {}

  @Post()
  @HttpCode(200)
  @RequirePermission(Permission.ViewBackups)
  @ApiConflictResponse({ description: '`backup_not_completed`: one of the backups is running or failed.' })
  compare(@CurrentActor() actor: Actor, @Body() body: DiffRequestDto): Promise<DiffResult> {
    return this.diffs.diff(actor, body);
  }

  @Get()
  @RequirePermission(Permission.ViewBackups)
  @ApiConflictResponse({ description: '`backup_not_completed`: one of the backups is running or failed.' })
  compareByQuery(@CurrentActor() actor: Actor, @Query() query: DiffRequestDto): Promise<DiffResult> {
    return this.diffs.diff(actor, query);
  }
}
