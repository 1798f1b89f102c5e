import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, MaxLength, ValidateIf } from 'class-validator';
import { PlainName } from '@app/common/plain-name.js';
import type { ProviderKind } from '@libs/providers/provider-kind.js';
import { PRIMARY_PROVIDER_KIND, registeredProviderKinds } from '@libs/providers/registry.js';

/** A PEM certificate and RSA key of up to 8192 bits take about 10 KB; a chain besides, more. */
export const CLIENT_CERTIFICATE_MAX_LENGTH = 32_768;

/** Body of POST /api/connections/create (spec "Connections", DESIGN section 4 for `provider`). */
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

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 256,
    description: 'Entra ID only: the directory (tenant) id or a verified domain.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  tenant_id?: string;

  @ApiProperty({
    minLength: 1,
    maxLength: 256,
    description:
      'Client id of the Okta API service integration, the Entra app registration or the Okta Workflows API Services app.',
  })
  @IsString()
  @Length(1, 256)
  client_id!: string;

  @ApiPropertyOptional({
    description:
      'Client secret of the integration. Required unless client_certificate is given (Entra ID); not a field of Okta Workflows connections. Write-only: never returned.',
    writeOnly: true,
    minLength: 1,
    maxLength: 1024,
  })
  // Okta Workflows authenticates with private_key instead (its credentials check names what is missing).
  @ValidateIf(
    (body: CreateConnectionDto) => body.client_certificate === undefined && body.private_key === undefined,
  )
  @IsString({
    message: 'client_secret must be a string (an Entra ID connection may give client_certificate instead)',
  })
  @Length(1, 1024)
  client_secret?: string;

  @ApiPropertyOptional({
    description:
      "Entra ID only, instead of client_secret: a certificate uploaded to the app registration and its unencrypted RSA private key, PEM (Microsoft's recommendation for app-only access). Write-only: never returned.",
    writeOnly: true,
    minLength: 1,
    maxLength: CLIENT_CERTIFICATE_MAX_LENGTH,
    example:
      '-----BEGIN CERTIFICATE-----\n...\n-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n',
  })
  @IsOptional()
  @IsString()
  @Length(1, CLIENT_CERTIFICATE_MAX_LENGTH)
  client_certificate?: string;

  @ApiPropertyOptional({
    description:
      "Okta Workflows only: the API Services app's private key for private_key_jwt, PEM or private JWK. Write-only: never returned.",
    writeOnly: true,
    minLength: 1,
    maxLength: 16384,
  })
  @IsOptional()
  @IsString()
  @Length(1, 16384)
  private_key?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    example: 'idp-backup-exporter',
    description:
      "Okta Workflows only: the alias of the exporter flow's API endpoint (docs/okta-workflows.md).",
  })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  flow_alias?: string;

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
