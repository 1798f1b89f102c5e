import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { UuidParam } from '@app/common/uuid-param.decorator.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { BackupUploadService, UPLOAD_LIMIT_BYTES } from './backup-upload.service.js';
import { BackupEnvelopeDto } from './dto/backup.dto.js';
import { UploadedBytes } from './uploaded-bytes.decorator.js';

/** The upload route's path, which the request edge reads as raw bytes (create-app.ts). */
export const WORKFLOWS_UPLOAD_PATH = /^\/api\/connections\/[^/]+\/workflows\/upload$/;

/** Backups from export files an admin made by hand (issue 33 "Manual"; beyond the spec). */
@ApiTags('backups')
@Controller('api/connections')
export class BackupUploadController {
  constructor(
    private readonly uploads: BackupUploadService,
    private readonly plans: PlanLimitsService,
  ) {}

  @Post(':id/workflows/upload')
  @ApiOperation({
    summary: 'Back up an Okta Workflows export file',
    description: `The body is a \`.folder\` or \`.flow\` file exported from the Workflows console (at most ${UPLOAD_LIMIT_BYTES / 1048576} MB), sent as \`application/octet-stream\`. It is validated as a flopack, stored encrypted as any snapshot and recorded as a completed backup (docs/okta-workflows.md).`,
  })
  @HttpCode(201)
  @RequirePermission(Permission.RunBackups)
  @ApiConsumes('application/octet-stream')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiCreatedResponse({ type: BackupEnvelopeDto, description: 'The completed backup.' })
  @ApiErrorResponses({
    400: 'No file, a file over the size cap, not a Workflows export (flopack), or a connection whose provider takes no export file, named.',
    402: 'The plan allows no more backups today (`limit: backups_per_day`).',
    404: 'A connection the team cannot see.',
    409: { codes: ['backup_in_progress'], description: 'A backup of this connection is running.' },
    415: 'A body other than application/octet-stream.',
  })
  async upload(
    @CurrentActor() actor: Actor,
    @UuidParam('id') id: string,
    @UploadedBytes() bytes: Buffer,
  ): Promise<BackupEnvelopeDto> {
    await this.plans.assertCanRunBackup(actor);
    return { backup: await this.uploads.upload(actor, id, bytes) };
  }
}
