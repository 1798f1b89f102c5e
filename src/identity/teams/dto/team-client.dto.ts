import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
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

/** POST /api/team/clients: what `cli client:create` takes, for the caller's team. */
@ApiSchema({ name: 'CreateTeamClientRequest' })
export class CreateTeamClientDto {
  @ApiProperty({
    enum: ROLES,
    description:
      'Only the owner (super_admin) gives `admin` or `super_admin`; the client never outranks its creator.',
  })
  @IsIn(ROLES)
  role!: Role;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    example: 'Nightly export job',
    description: 'Default "<role> integration".',
  })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;
}

/** A new client with its secret: the only time the secret is shown (only its hash is kept). */
@ApiSchema({ name: 'CreatedTeamClient' })
export class CreatedTeamClientDto extends TeamClientDto {
  @ApiProperty({
    example: 'q3F0bX7y2Vw9kLm4Nz8rT1sA6cD5eG0hJ2uP7iO3xYk',
    description: 'Shown once; store it now. Token requests authenticate with it (client_secret_basic).',
  })
  client_secret!: string;
}

/** POST /api/team/clients. */
@ApiSchema({ name: 'CreatedTeamClientResponse' })
export class CreatedTeamClientEnvelopeDto {
  @ApiProperty({ type: CreatedTeamClientDto }) client!: CreatedTeamClientDto;
}
