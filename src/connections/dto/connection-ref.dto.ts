import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { registeredProviderKinds } from '@libs/providers/registry.js';
import type { ConnectionRef } from '@app/connections/connection-ref.js';

/** The owning connection as backups and restores show it (never its credentials). */
@ApiSchema({ name: 'ConnectionRef' })
export class ConnectionRefDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: registeredProviderKinds() }) provider!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) org_name!: string | null;
  @ApiProperty({ format: 'uri', example: 'https://acme.okta.com' }) org_url!: string;
}

/** `connection` of a backup or restore, from the connection it was loaded with. */
export function toConnectionRefDto(
  connection: Pick<ConnectionRef, 'id' | 'provider' | 'orgName' | 'orgUrl'>,
): ConnectionRefDto {
  return {
    id: connection.id,
    provider: connection.provider,
    org_name: connection.orgName,
    org_url: connection.orgUrl,
  };
}
