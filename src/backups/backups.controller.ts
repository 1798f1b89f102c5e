import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { type BackupStarted, BackupsService } from './backups.service.js';
import type { BackupDto, BackupStatsDto, BackupStatusDto } from './dto/backup.dto.js';
import { BackupStatusQuery } from './dto/backup-status.query.js';
import { ListBackupsQuery } from './dto/list-backups.query.js';
import { RunBackupDto } from './dto/run-backup.dto.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';

/** Spec "Backups". Static paths are declared before `:id` so they are never read as ids. */
@ApiTags('backups')
@Controller('api/backup')
export class BackupsController {
  constructor(
    private readonly backups: BackupsService,
    private readonly plans: PlanLimitsService,
  ) {}

  @Get('list')
  @RequirePermission(Permission.ViewBackups)
  list(
    @CurrentActor() actor: Actor,
    @Query() query: ListBackupsQuery,
  ): Promise<{ backups: BackupDto[]; total: number; stats: BackupStatsDto | null }> {
    return this.backups.list(actor, query);
  }

  @Get('status')
  @RequirePermission(Permission.ViewBackups)
  status(@CurrentActor() actor: Actor, @Query() query: BackupStatusQuery): Promise<BackupStatusDto> {
    return this.backups.status(actor, query.backupId);
  }

  @Get('active')
  @RequirePermission(Permission.ViewBackups)
  async active(@CurrentActor() actor: Actor): Promise<{ active: BackupDto[] }> {
    return { active: await this.backups.active(actor) };
  }

  @Post('run')
  @HttpCode(202)
  @RequirePermission(Permission.RunBackups)
  @ApiConflictResponse({ description: '`backup_in_progress`: a backup of this connection is running.' })
  async run(@CurrentActor() actor: Actor, @Body() body: RunBackupDto): Promise<BackupStarted> {
    await this.plans.assertCanRunBackup(actor);
    return this.backups.run(actor, body);
  }

  @Get(':id')
  @RequirePermission(Permission.ViewBackups)
  async get(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
  ): Promise<{ backup: BackupDto }> {
    return { backup: await this.backups.get(actor, id) };
  }

  @Delete(':id')
  @RequirePermission(Permission.RunBackups)
  async delete(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<{ ok: true }> {
    await this.backups.delete(actor, id);
    return { ok: true };
  }
}
