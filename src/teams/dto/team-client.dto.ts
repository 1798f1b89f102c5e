import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ROLES, type Role } from '@app/common/permission.js';

/** An integration client of the team (GET /api/team/clients); its secret is never returned. */
export class TeamClientDto {
  @ApiProperty() client_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ROLES, description: "At most its creator's current role applies." }) role!: Role;
  @ApiProperty({ format: 'uuid', description: 'The member the client acts for.' }) created_by!: string;
  @ApiProperty({ description: 'ISO 8601' }) created_at!: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'ISO 8601' }) revoked_at!: string | null;
}
