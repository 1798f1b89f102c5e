import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ConnectionEntity } from '@app/connections/connection.entity.js';
import { PROVIDER_KINDS, type ProviderKind } from '@libs/providers/provider-kind.js';

/** A connection as the API returns it: credentials redacted (the secret is never returned). */
export class ConnectionDto {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: PROVIDER_KINDS }) provider!: ProviderKind;
  @ApiProperty() org_url!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) org_name!: string | null;
  @ApiProperty() client_id!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) last_verified_at!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export function toConnectionDto(row: ConnectionEntity): ConnectionDto {
  return {
    id: row.id,
    provider: row.provider,
    org_url: row.orgUrl,
    org_name: row.orgName,
    client_id: row.publicCredentials.client_id,
    last_verified_at: row.lastVerifiedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
