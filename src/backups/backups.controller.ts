import { Body, Controller, Delete, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { answerHeld, type HeldForApproval } from '@app/approvals/approval-gate.js';
import { ApprovalHeldDto, HELD_DESCRIPTION } from '@app/approvals/dto/approval.dto.js';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { UuidParam } from '@app/common/uuid-param.decorator.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { OkResponseDto } from '@app/common/openapi/ok-response.dto.js';
import { Permission } from '@app/common/permission.js';
import type { BackupStarted } from './backup-started.js';
import { BackupsService } from './backups.service.js';
import {
  ActiveBackupsDto,
  BackupEnvelopeDto,
  BackupListDto,
  BackupStartedDto,
  BackupStatusDto,
} from './dto/backup.dto.js';
import { BackupStatusQuery } from './dto/backup-status.query.js';
import { ListBackupsQuery } from './dto/list-backups.query.js';
import { RunBackupDto } from './dto/run-backup.dto.js';

/** Spec "Backups". Static paths are declared before `:id` so they are never read as ids. */
@ApiTags('backups')
@Controller('api/backup')
export class BackupsController {
  constructor(private readonly backups: BackupsService) {}

  @Get('list')
  @ApiOperation({ summary: 'List backups' })
  @RequirePermission(Permission.ViewBackups)
  @ApiOkResponse({ type: BackupListDto })
  @ApiErrorResponses({ 400: 'An invalid filter or a `limit` past 1000, named.' })
  list(@CurrentActor() actor: Actor, @Query() query: ListBackupsQuery): Promise<BackupListDto> {
    return this.backups.list(actor, query);
  }

  @Get('status')
  @ApiOperation({ summary: 'Poll a backup' })
  @RequirePermission(Permission.ViewBackups)
  @ApiOkResponse({ type: BackupStatusDto })
  @ApiErrorResponses({ 400: '`backupId` missing or not a uuid.', 404: 'A backup the team cannot see.' })
  status(@CurrentActor() actor: Actor, @Query() query: BackupStatusQuery): Promise<BackupStatusDto> {
    return this.backups.status(actor, query.backupId);
  }

  @Get('active')
  @ApiOperation({ summary: 'List running backups' })
  @RequirePermission(Permission.ViewBackups)
  @ApiOkResponse({ type: ActiveBackupsDto })
  async active(@CurrentActor() actor: Actor): Promise<ActiveBackupsDto> {
    return { active: await this.backups.active(actor) };
  }

  @Post('run')
  @ApiOperation({ summary: 'Start a backup' })
  @HttpCode(202)
  @RequirePermission(Permission.RunBackups)
  @ApiAcceptedResponse({ type: BackupStartedDto, description: 'Started; poll GET /api/backup/status.' })
  @ApiErrorResponses({
    400: 'A missing or invalid field, or an unknown resource type in `include`, named.',
    402: 'The plan allows no more backups today (`limit: backups_per_day`).',
    404: 'A connection the team cannot see.',
    409: { codes: ['backup_in_progress'], description: 'A backup of this connection is running.' },
  })
  run(@CurrentActor() actor: Actor, @Body() body: RunBackupDto): Promise<BackupStarted> {
    return this.backups.run(actor, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a backup' })
  @RequirePermission(Permission.ViewBackups)
  @ApiOkResponse({ type: BackupEnvelopeDto })
  @ApiErrorResponses({ 400: '`id` is not a uuid.', 404: 'A backup the team cannot see.' })
  async get(@CurrentActor() actor: Actor, @UuidParam('id') id: string): Promise<BackupEnvelopeDto> {
    return { backup: await this.backups.get(actor, id) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a backup' })
  @RequirePermission(Permission.RunBackups)
  @ApiOkResponse({ type: OkResponseDto, description: 'The record and its stored snapshot are gone.' })
  @ApiAcceptedResponse({ type: ApprovalHeldDto, description: HELD_DESCRIPTION })
  @ApiErrorResponses({
    400: '`id` is not a uuid.',
    404: 'A backup the team cannot see.',
    409: { codes: ['backup_running'], description: 'A running backup cannot be deleted.' },
  })
  async delete(
    @CurrentActor() actor: Actor,
    @UuidParam('id') id: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ ok: true } | HeldForApproval> {
    return answerHeld(response, (await this.backups.delete(actor, id)) ?? { ok: true as const });
  }
}
