import { PlainName } from '@app/common/plain-name.js';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { declareCredentialFields } from './credential-fields.js';

/**
 * Body of PATCH /api/connections/[id] (spec "Connections"): every field optional, the credential
 * fields of every registered provider besides (`credential-fields.ts`).
 */
export class UpdateConnectionDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, description: 'null clears the name.' })
  @PlainName()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  org_name?: string | null;
}

declareCredentialFields('update', UpdateConnectionDto);
