import { Body, Controller, Get, Header, HttpCode, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, Public, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { AuditPackService } from './audit-pack.service.js';
import { AuditPackRequestDto } from './dto/audit-pack-request.dto.js';
import { PRIVATE_DOWNLOAD_CACHE_CONTROL } from './private-download.js';

/**
 * Spec "Export": the audit pack (permission `export`), and beyond the spec the public key its
 * signatures verify against (public: an auditor needs no account to check a pack).
 */
@ApiTags('export')
@Controller('api/export')
export class AuditPackController {
  constructor(private readonly packs: AuditPackService) {}

  @Post('audit-pack')
  @ApiOperation({ summary: 'Download the audit pack (ZIP)' })
  @HttpCode(200)
  @RequirePermission(Permission.Export)
  @Header('Cache-Control', PRIVATE_DOWNLOAD_CACHE_CONTROL)
  @ApiProduces('application/zip')
  @ApiOkResponse({
    schema: { type: 'string', format: 'binary' },
    description:
      'The ZIP, streamed, with a Content-Disposition filename: backups, restores, drills, compliance findings, audit events and notifications of the period, with a signed MANIFEST.json (docs/export.md).',
  })
  @ApiErrorResponses({
    400: 'A missing or invalid `from`, `to` or `connectionIds`, named.',
    404: 'A connection the team cannot see.',
  })
  async auditPack(@CurrentActor() actor: Actor, @Body() body: AuditPackRequestDto): Promise<StreamableFile> {
    const { stream, filename } = await this.packs.create(actor, body);
    return new StreamableFile(stream, {
      type: 'application/zip',
      disposition: `attachment; filename="${filename}"`,
    });
  }

  @Public()
  @Get('signing-key')
  @ApiOperation({ summary: 'The public key audit packs are signed with' })
  @Header('Content-Type', 'application/x-pem-file')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiProduces('application/x-pem-file')
  @ApiQuery({
    name: 'kid',
    required: false,
    description: 'A pack’s `signing_key.key_id`; default the current key.',
  })
  @ApiOkResponse({
    schema: {
      type: 'string',
      example: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA…\n-----END PUBLIC KEY-----\n',
    },
    description: 'The Ed25519 public key (PEM, SubjectPublicKeyInfo) audit packs are signed with.',
  })
  @ApiErrorResponses({ 404: 'A key id the service does not hold.' })
  signingKey(@Query('kid') kid?: string): string {
    return this.packs.publicKey(typeof kid === 'string' && kid !== '' ? kid : undefined).pem;
  }
}
