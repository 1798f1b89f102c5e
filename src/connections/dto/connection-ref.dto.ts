import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ConnectionRef } from '@app/connections/connection-ref.js';

/** The owning connection as backups and restores show it (never its credentials). */
export class ConnectionRefDto {
  @ApiProperty() id!: string;
  @ApiProperty() provider!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) org_name!: string | null;
  @ApiProperty() org_url!: string;
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
