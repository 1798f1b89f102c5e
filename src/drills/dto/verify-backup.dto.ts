import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, IsUUID, ValidateNested } from 'class-validator';
import { CrossOrgMappingDto } from '@app/restore/cross-org/dto/cross-org-mapping.dto.js';

/**
 * Body of POST /api/backup/{id}/verify, optional (docs/backups.md "Verification drills"): with
 * `targetConnectionId`, a sandbox drill (docs/restore.md "Into another org").
 */
export class VerifyBackupDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'A sandbox drill: also restore the backup into this connection (another org of the same kind, never the backup’s own), back it up, and report what still differs modulo the mapping.',
  })
  @IsOptional()
  @IsUUID()
  targetConnectionId?: string;

  @ApiPropertyOptional({
    type: CrossOrgMappingDto,
    description: 'With `targetConnectionId`: what carries the backup over.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => CrossOrgMappingDto)
  mapping?: CrossOrgMappingDto;
}
