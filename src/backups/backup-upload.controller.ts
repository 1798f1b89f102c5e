import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { UuidParam } from '@app/common/uuid-param.decorator.js';
import { type UploadBody, UploadedBody } from '@app/common/request-edge/upload-body.js';
import { BackupUploadService, UPLOAD_LIMIT_BYTES } from './backup-upload.service.js';
import { BackupEnvelopeDto } from './dto/backup.dto.js';

/** The upload route's path, whose body the request edge leaves for the route to read (create-app.ts, UploadedBody). */
export const WORKFLOWS_UPLOAD_PATH = /^\/api\/connections\/[^/]+\/workflows\/upload$/;

/** Backups from export files an admin made by hand (docs/okta-workflows.md; beyond the spec). */
@ApiTags('backups')
@Controller('api/connections')
export class BackupUploadController {
  constructor(private readonly uploads: BackupUploadService) {}

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
    400: 'No file, not a Workflows export (flopack), or a connection whose provider takes no export file, named.',
    402: 'The plan allows no more backups today (`limit: backups_per_day`).',
    404: 'A connection the team cannot see.',
    409: { codes: ['backup_in_progress'], description: 'A backup of this connection is running.' },
    413: {
      codes: ['payload_too_large'],
      description:
        'A file over the size cap: a declared `Content-Length` is refused before the body is read.',
    },
    415: 'A body other than application/octet-stream.',
    503: {
      codes: ['service_unavailable'],
      description: 'Too many uploads are being read by this replica; retry after `Retry-After` seconds.',
    },
  })
  async upload(
    @CurrentActor() actor: Actor,
    @UuidParam('id') id: string,
    @UploadedBody(UPLOAD_LIMIT_BYTES) body: UploadBody,
  ): Promise<BackupEnvelopeDto> {
    return { backup: await this.uploads.upload(actor, id, body) };
  }
}
