import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { UuidParam } from '@app/common/uuid-param.decorator.js';
import { Permission } from '@app/common/permission.js';
import { RestoreDrillEnvelopeDto, RestoreDrillStartedDto } from './dto/restore-drill.dto.js';
import { RestoreDrillsService } from './restore-drills.service.js';
import { VerifyBackupDto } from './dto/verify-backup.dto.js';

/**
 * Restore drills, beyond the spec (docs/backups.md "Verification drills"): verify a backup's snapshot end to
 * end (`run backups`) and poll the drill (`view backups`).
 */
@ApiTags('backups')
@Controller('api')
export class RestoreDrillsController {
  constructor(private readonly drills: RestoreDrillsService) {}

  @Post('backup/:id/verify')
  @HttpCode(202)
  @ApiOperation({ summary: 'Verify a backup end to end (a restore drill)' })
  @ApiBody({ type: VerifyBackupDto, required: false, description: 'Only for a sandbox drill.' })
  @RequirePermission(Permission.RunBackups)
  @ApiAcceptedResponse({
    type: RestoreDrillStartedDto,
    description: 'Queued; poll GET /api/restore-drills/{drillId}.',
  })
  @ApiErrorResponses({
    400: '`id` is not a uuid; a sandbox of another provider kind (`target_kind_mismatch`) or the backup’s own connection (`sandbox_is_source`).',
    404: 'A backup or sandbox connection the team cannot see.',
    409: { codes: ['backup_not_completed'], description: 'The backup is running or failed.' },
  })
  verify(
    @CurrentActor() actor: Actor,
    @UuidParam('id') id: string,
    @Body() body: VerifyBackupDto,
  ): Promise<RestoreDrillStartedDto> {
    return this.drills.start(actor, id, body);
  }

  @Get('restore-drills/:drillId')
  @ApiOperation({ summary: 'Poll a restore drill' })
  @RequirePermission(Permission.ViewBackups)
  @ApiOkResponse({
    type: RestoreDrillEnvelopeDto,
    description: '`outcome` is `passed` or `failed` once the drill is over.',
  })
  @ApiErrorResponses({ 400: '`drillId` is not a uuid.', 404: 'A drill the team cannot see.' })
  async get(
    @CurrentActor() actor: Actor,
    @UuidParam('drillId') drillId: string,
  ): Promise<RestoreDrillEnvelopeDto> {
    return { drill: await this.drills.get(actor, drillId) };
  }
}
