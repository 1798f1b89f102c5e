import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';

/** Body of POST /api/connections/create (spec "Connections", DESIGN section 4 for `provider`). */
export class CreateConnectionDto {
  @ApiProperty({ example: 'https://acme.okta.com', description: 'Tenant URL; https only.' })
  @IsString()
  @Length(1, 2048)
  org_url!: string;

  @ApiProperty({ description: 'Client id of the Okta API service integration.' })
  @IsString()
  @Length(1, 256)
  client_id!: string;

  @ApiProperty({
    description: 'Client secret of the integration. Write-only: never returned.',
    writeOnly: true,
  })
  @IsString()
  @Length(1, 1024)
  client_secret!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  org_name?: string;

  @ApiPropertyOptional({ enum: ['okta'], default: 'okta' })
  @IsOptional()
  @IsIn(['okta'], { message: 'provider must be okta (okta_workflows and entra_id are not available yet)' })
  provider?: 'okta';
}
