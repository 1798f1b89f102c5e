import { PlainName } from '@app/common/plain-name.js';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { CLIENT_CERTIFICATE_MAX_LENGTH } from './create-connection.dto.js';

/** Body of PATCH /api/connections/[id] (spec "Connections"): every field optional. */
export class UpdateConnectionDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, description: 'null clears the name.' })
  @PlainName()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  org_name?: string | null;

  @ApiPropertyOptional({ minLength: 1, maxLength: 256 })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  client_id?: string;

  @ApiPropertyOptional({
    writeOnly: true,
    minLength: 1,
    maxLength: 1024,
    description: 'Write-only: never returned.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 1024)
  client_secret?: string;

  @ApiPropertyOptional({
    writeOnly: true,
    minLength: 1,
    maxLength: CLIENT_CERTIFICATE_MAX_LENGTH,
    description:
      'Entra ID: a certificate and its private key, PEM, replacing the client secret (or the certificate) the connection holds. Write-only: never returned.',
  })
  @IsOptional()
  @IsString()
  @Length(1, CLIENT_CERTIFICATE_MAX_LENGTH)
  client_certificate?: string;

  @ApiPropertyOptional({
    writeOnly: true,
    minLength: 1,
    maxLength: 16384,
    description:
      "Okta Workflows: the API Services app's new private key (PEM or private JWK). Write-only: never returned.",
  })
  @IsOptional()
  @IsString()
  @Length(1, 16384)
  private_key?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description: "Okta Workflows: the exporter flow's API endpoint alias.",
  })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  flow_alias?: string;
}
