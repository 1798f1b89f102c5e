import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { PlainName } from '@app/common/plain-name.js';
import type { ProviderKind } from '@libs/providers/provider-kind.js';
import { PRIMARY_PROVIDER_KIND, registeredProviderKinds } from '@libs/providers/registry.js';
import { declareCredentialFields } from './credential-fields.js';

/**
 * Body of POST /api/connections/create (spec "Connections", DESIGN section 4 for `provider`): the
 * credential fields of every registered provider besides (`credential-fields.ts`).
 */
export class CreateConnectionDto {
  @ApiPropertyOptional({
    format: 'uri',
    minLength: 1,
    maxLength: 2048,
    example: 'https://acme.okta.com',
    description: "Tenant URL; https only. Required for Okta; Entra ID defaults to Microsoft Graph's.",
  })
  @IsOptional()
  @IsString()
  @Length(1, 2048)
  org_url?: string;

  @ApiPropertyOptional({ maxLength: 200, example: 'Acme production' })
  @PlainName()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  org_name?: string;

  @ApiPropertyOptional({ enum: registeredProviderKinds(), default: PRIMARY_PROVIDER_KIND })
  @IsOptional()
  // The registry is the one list of kinds (the column keeps no second one).
  @IsIn(registeredProviderKinds(), {
    message: `provider must be one of ${registeredProviderKinds().join(', ')}`,
  })
  provider?: ProviderKind;
}

declareCredentialFields('create', CreateConnectionDto);
