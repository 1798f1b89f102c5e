import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { ConnectionEntity } from '@app/connections/connection.entity.js';
import type { ProviderKind } from '@libs/providers/provider-kind.js';
import { registeredProviderKinds } from '@libs/providers/registry.js';

/** A connection as the API returns it: credentials redacted (the secret is never returned). */
@ApiSchema({ name: 'Connection' })
export class ConnectionDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: registeredProviderKinds() }) provider!: ProviderKind;
  @ApiProperty({ format: 'uri', example: 'https://acme.okta.com' }) org_url!: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Acme production' }) org_name!: string | null;
  @ApiProperty({ example: '0oa1b2c3d4e5f6g7h8i9' }) client_id!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) last_verified_at!:
    string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** `{ connection }`: the answer of every route that reads or writes one connection. */
@ApiSchema({ name: 'ConnectionResponse' })
export class ConnectionEnvelopeDto {
  @ApiProperty({ type: ConnectionDto }) connection!: ConnectionDto;
}

/** GET /api/connections: every provider kind, calling team. */
@ApiSchema({ name: 'ConnectionList' })
export class ConnectionListDto {
  @ApiProperty({ type: [ConnectionDto] }) connections!: ConnectionDto[];
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
