import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ROLES, type Role } from '@app/common/permission.js';

/** An integration client of the team (GET /api/team/clients); its secret is never returned. */
@ApiSchema({ name: 'TeamClient' })
export class TeamClientDto {
  @ApiProperty({ example: 'ic_3k9d8f7a6s5d4f3g' }) client_id!: string;
  @ApiProperty({ example: 'Nightly export job' }) name!: string;
  @ApiProperty({ enum: ROLES, description: "At most its creator's current role applies." }) role!: Role;
  @ApiProperty({ format: 'uuid', description: 'The member the client acts for.' }) created_by!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) revoked_at!: string | null;
}

/** GET /api/team/clients. */
@ApiSchema({ name: 'TeamClientList' })
export class TeamClientListDto {
  @ApiProperty({ type: [TeamClientDto] }) clients!: TeamClientDto[];
}
