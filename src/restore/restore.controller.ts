import { Controller, Get, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../common/actor.js';
import { CurrentActor, RequirePermission } from '../common/decorators.js';
import { Permission } from '../common/permission.js';
import { RestorePreviewQuery } from './dto/restore-preview.query.js';
import { type RestorePreview, RestoreService } from './restore.service.js';

/** Spec "Restore": the dry-run preview (execution is not built yet). */
@ApiTags('restore')
@Controller('api/restore')
export class RestoreController {
  constructor(private readonly restores: RestoreService) {}

  @Get()
  @RequirePermission(Permission.Restore)
  @ApiConflictResponse({ description: '`backup_not_completed`: the backup is running or failed.' })
  preview(@CurrentActor() actor: Actor, @Query() query: RestorePreviewQuery): Promise<RestorePreview> {
    return this.restores.preview(actor, query);
  }
}
